import { afterEach, describe, expect, it } from 'vitest';
import {
  type CommonsStore,
  createCommonsApp,
  issueToken,
  openCommonsStore,
} from '../../src/commons/index.ts';
import { createCommonsClient, createMemoryHolder, pullFromCommons } from '../../src/transport/index.ts';
import { alice, bob, carol, confirm, dave, day, fileOf, hashOf, lesson } from './helpers.ts';

const stores: CommonsStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function commons() {
  const store = await openCommonsStore('sqlite::memory:');
  stores.push(store);
  const app = createCommonsApp({ store, now: () => day(10) });
  const fetchLike = ((input: string | URL | Request, init?: RequestInit) =>
    app.request(String(input), init)) as typeof fetch;
  const anyToken = (await issueToken(store, { origin: null, now: day(0) })).token;
  const client = (token?: string) =>
    createCommonsClient({ url: 'http://localhost/', fetch: fetchLike, ...(token ? { token } : {}) });
  return { store, client, anyToken };
}

describe('the commons client', () => {
  it('publishes, reads back, lists, and reports refusals line by line', async () => {
    const { client, anyToken } = await commons();
    const writer = client(anyToken);
    const body = fileOf([lesson(alice, 0, day(1))]);
    expect(await writer.publish(alice.origin, body)).toEqual({
      ok: true,
      status: 200,
      updated: day(1),
      records: 1,
      unchanged: false,
    });
    expect(Buffer.from((await writer.file(alice.origin))!).toString()).toBe(body);
    expect(await writer.file(bob.origin)).toBeNull();
    expect(await writer.index()).toEqual({
      entries: [{ origin: alice.origin, updated: day(1), records: 1 }],
      cursor: null,
    });
    const refused = await writer.publish(alice.origin, fileOf([lesson(bob, 0, day(2))]));
    expect(refused).toMatchObject({ ok: false, status: 422, error: 'refused_lines' });
    expect(refused.ok ? [] : refused.refused).toEqual([
      expect.objectContaining({ line: 1, code: 'wrong_origin' }),
    ]);
    await expect(client().publish(alice.origin, body)).rejects.toThrow(/token/);
  });

  it('lists lessons by state, each line verified here', async () => {
    const { client, anyToken } = await commons();
    const writer = client(anyToken);
    const published = lesson(alice, 0, day(1));
    await writer.publish(alice.origin, fileOf([published]));
    for (const identity of [bob, carol, dave]) {
      await writer.publish(identity.origin, fileOf([confirm(identity, hashOf(published), day(2))]));
    }
    const { lessons, unverified } = await client().lessons('common');
    expect(unverified).toBe(0);
    expect(lessons).toEqual([
      expect.objectContaining({ hash: hashOf(published), state: 'common', confirmations: 3 }),
    ]);
    expect(lessons[0]?.record.line).toBe(published);
  });

  it('pulls into a holder what is newer than what it has', async () => {
    const { client, anyToken } = await commons();
    const writer = client(anyToken);
    await writer.publish(alice.origin, fileOf([lesson(alice, 0, day(1))]));
    await writer.publish(bob.origin, fileOf([lesson(bob, 1, day(2))]));
    const holder = createMemoryHolder();
    const first = await pullFromCommons(client(), holder, { now: day(10) });
    expect(first).toMatchObject({ ok: true, origins: 2, accepted: 2, refused: [] });
    await writer.publish(bob.origin, fileOf([lesson(bob, 1, day(2)), lesson(bob, 2, day(3))]));
    const second = await pullFromCommons(client(), holder, { now: day(10) });
    expect(second).toMatchObject({ ok: true, origins: 1, accepted: 1 });
    expect(holder.lines(bob.origin)).toHaveLength(2);
  });
});
