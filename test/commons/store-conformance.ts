import { afterEach, describe, expect, it } from 'vitest';
import type { CommonsStore } from '../../src/commons/index.ts';
import { hashToken } from '../../src/commons/index.ts';
import { alice, bob, carol, confirm, day, fileToPut, hashOf, identities, lesson } from './helpers.ts';

export interface StoreFactory {
  /** A new, empty store, and a way to open a second handle on the same database (another process). */
  fresh(): Promise<{ store: CommonsStore; again(): Promise<CommonsStore> }>;
}

/** What every CommonsStore does, whatever holds it. */
export function describeCommonsStore(name: string, factory: StoreFactory): void {
  describe(`${name} commons store`, () => {
    const opened: CommonsStore[] = [];
    const fresh = async () => {
      const made = await factory.fresh();
      opened.push(made.store);
      return {
        store: made.store,
        again: async () => {
          const other = await made.again();
          opened.push(other);
          return other;
        },
      };
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('keeps a file byte for byte with its records', async () => {
      const { store } = await fresh();
      const file = fileToPut(alice, [lesson(alice, 0, day(1)), lesson(alice, 1, day(2))]);
      expect(await store.putFile(file)).toEqual({ outcome: 'stored' });
      const held = await store.getFile(alice.origin);
      expect(Buffer.from(held!.body).equals(Buffer.from(file.body))).toBe(true);
      expect(held).toMatchObject({ origin: alice.origin, updated: day(2), records: 2 });
      expect((await store.allRecords()).sort()).toEqual(file.records.map((r) => r.line).sort());
      expect(await store.getFile(bob.origin)).toBeNull();
    });

    it('replaces a file only with a later one, and says why not', async () => {
      const { store } = await fresh();
      const first = fileToPut(alice, [lesson(alice, 0, day(1)), lesson(alice, 1, day(2))]);
      await store.putFile(first);
      expect(await store.putFile(first)).toEqual({ outcome: 'unchanged' });
      const older = fileToPut(alice, [lesson(alice, 0, day(1))]);
      expect(await store.putFile(older)).toEqual({
        outcome: 'stale',
        held: { updated: day(2), sameTime: false },
      });
      const sameTime = fileToPut(alice, [lesson(alice, 1, day(2))]);
      expect(await store.putFile(sameTime)).toEqual({
        outcome: 'stale',
        held: { updated: day(2), sameTime: true },
      });
      expect((await store.getFile(alice.origin))!.records).toBe(2);

      const later = fileToPut(alice, [lesson(alice, 2, day(3))]);
      expect(await store.putFile(later)).toEqual({ outcome: 'stored' });
      expect(await store.allRecords()).toEqual([later.records[0]!.line]);
    });

    it('lists files in time order, from a point, a page at a time', async () => {
      const { store } = await fresh();
      const [a, b, c, d] = identities as [
        (typeof identities)[0],
        (typeof identities)[0],
        (typeof identities)[0],
        (typeof identities)[0],
      ];
      await store.putFile(fileToPut(c, [lesson(c, 0, day(3))]));
      await store.putFile(fileToPut(a, [lesson(a, 0, day(1))]));
      await store.putFile(fileToPut(d, [lesson(d, 0, day(3))]));
      await store.putFile(fileToPut(b, [lesson(b, 0, day(2)), lesson(b, 1, day(1))]));
      const all = await store.indexPage({ limit: 10 });
      const tied = [c.origin, d.origin].sort();
      expect(all.map((row) => row.origin)).toEqual([a.origin, b.origin, ...tied]);
      expect(all[1]).toMatchObject({ origin: b.origin, updated: day(2), records: 2 });

      const first = await store.indexPage({ limit: 2 });
      const last = first[1]!;
      const rest = await store.indexPage({
        limit: 2,
        after: { updatedKey: last.updatedKey, origin: last.origin },
      });
      expect([...first, ...rest].map((row) => row.origin)).toEqual(all.map((row) => row.origin));
      const tail = await store.indexPage({
        limit: 1,
        after: { updatedKey: rest[0]!.updatedKey, origin: tied[0]! },
      });
      expect(tail.map((row) => row.origin)).toEqual([tied[1]]);

      const since = await store.indexPage({ limit: 10, sinceKey: all[1]!.updatedKey });
      expect(since.map((row) => row.origin)).toEqual(tied);
      const lines = await store.recordsSince(all[1]!.updatedKey);
      expect(lines).toHaveLength(2);
    });

    it('changes its version with every write and only then', async () => {
      const { store } = await fresh();
      const before = await store.version();
      await store.putFile(fileToPut(alice, [lesson(alice, 0, day(1))]));
      const after = await store.version();
      expect(after).not.toBe(before);
      await store.putFile(fileToPut(alice, [lesson(alice, 0, day(1))]));
      expect(await store.version()).toBe(after);
      await store.putFile(fileToPut(alice, [lesson(alice, 1, day(2))]));
      expect(await store.version()).not.toBe(after);
    });

    it('keeps tokens by hash, finds, lists and revokes them', async () => {
      const { store } = await fresh();
      await store.addToken({
        id: 't1',
        hash: hashToken('secret-1'),
        origin: alice.origin,
        created: day(1),
        revoked: null,
      });
      await store.addToken({
        id: 't2',
        hash: hashToken('secret-2'),
        origin: null,
        created: day(2),
        revoked: null,
      });
      expect(await store.findToken(hashToken('secret-1'))).toEqual({
        id: 't1',
        origin: alice.origin,
        created: day(1),
        revoked: null,
      });
      expect(await store.findToken(hashToken('nope'))).toBeNull();
      expect(await store.revokeToken('t1', day(3))).toBe(true);
      expect(await store.revokeToken('t1', day(4))).toBe(false);
      expect(await store.revokeToken('missing', day(4))).toBe(false);
      expect((await store.listTokens()).map((t) => [t.id, t.origin, t.revoked])).toEqual([
        ['t1', alice.origin, day(3)],
        ['t2', null, null],
      ]);
    });

    it('counts requests per token and window', async () => {
      const { store } = await fresh();
      expect(await store.countRequest('t1', 60_000)).toBe(1);
      expect(await store.countRequest('t1', 60_000)).toBe(2);
      expect(await store.countRequest('t2', 60_000)).toBe(1);
      expect(await store.countRequest('t1', 120_000)).toBe(1);
      expect(await store.countRequest('t1', 120_000)).toBe(2);
    });

    it('shares one database between handles: each sees the other’s writes', async () => {
      const { store, again } = await fresh();
      const other = await again();
      await store.putFile(fileToPut(alice, [lesson(alice, 0, day(1))]));
      await other.putFile(fileToPut(bob, [lesson(bob, 0, day(2))]));
      expect((await other.getFile(alice.origin))?.records).toBe(1);
      expect((await store.getFile(bob.origin))?.records).toBe(1);
      expect(await other.putFile(fileToPut(alice, [lesson(alice, 0, day(0))]))).toMatchObject({
        outcome: 'stale',
      });
      expect(await other.countRequest('t', 0)).toBe(1);
      expect(await store.countRequest('t', 0)).toBe(2);
    });

    it('never lets a file go back when handles race', async () => {
      const { store, again } = await fresh();
      const other = await again();
      const versions = Array.from({ length: 12 }, (_, n) =>
        fileToPut(carol, [
          lesson(carol, 0, day(0)),
          confirm(carol, hashOf(lesson(bob, 0, day(0))), day(n + 1)),
        ]),
      );
      const outcomes = await Promise.all(versions.map((file, n) => (n % 2 ? store : other).putFile(file)));
      expect(outcomes.some((o) => o.outcome === 'stored')).toBe(true);
      const held = await store.getFile(carol.origin);
      expect(held?.updated).toBe(day(12));
      expect(await store.allRecords()).toHaveLength(2);
    });

    it('takes many origins writing at once and loses none', async () => {
      const { store, again } = await fresh();
      const other = await again();
      const writers = identities.map((identity, n) => fileToPut(identity, [lesson(identity, n, day(n + 1))]));
      await Promise.all(writers.map((file, n) => (n % 2 ? store : other).putFile(file)));
      const listed = await other.indexPage({ limit: 100 });
      expect(listed.map((row) => row.origin).sort()).toEqual(identities.map((i) => i.origin).sort());
      expect(await store.allRecords()).toHaveLength(identities.length);
    });
  });
}
