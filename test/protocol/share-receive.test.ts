import { describe, expect, it } from 'vitest';
import { generateIdentity, type Identity, lessonHash, signRecord } from '../../src/protocol/index.ts';
import { receive, revoke } from '../../src/share/index.ts';
import {
  addTombstone,
  auditOfLesson,
  getLesson,
  listLessons,
  provenanceOf,
  recordsOf,
  type Store,
} from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { signAnything } from './helpers.ts';
import { at, fileOf, openTempStore, ownLesson, params } from './share-fixtures.ts';

const tempDir = useTempDirs();

function withStore(test: (store: Store) => void): void {
  const store = openTempStore(tempDir());
  try {
    test(store);
  } finally {
    store.close();
  }
}

const text = 'The integration tests time out when the database container is still starting.';

function lessonLine(identity: Identity, sentence = text, updated = at(0), strength = 1.5): string {
  return signRecord(identity, { kind: 'error', text: sentence, seen: 2, strength, updated });
}

describe('receive: every record checked, each refusal counted by its reason', () => {
  it('keeps a new lesson as a candidate and its line byte for byte', () => {
    withStore((store) => {
      const me = generateIdentity();
      const sender = generateIdentity();
      const line = lessonLine(sender);
      const report = receive(store, me, [fileOf(sender, [line])], { now: at(1), params });
      expect(report).toMatchObject({ received: 1, refused: 0 });
      const [lesson] = listLessons(store.db);
      expect(lesson).toMatchObject({
        hash: lessonHash('error', text),
        kind: 'error',
        text,
        origin: sender.origin,
        review: 'pending_review',
        strength: 0.5,
        project: null,
      });
      expect(recordsOf(store.db, sender.origin).map((record) => record.line)).toEqual([line]);
      expect(auditOfLesson(store.db, lesson!.id).map((row) => row.action)).toEqual(['receive']);
      expect(receive(store, me, [fileOf(sender, [line])], { now: at(2), params })).toMatchObject({
        received: 0,
        known: 1,
      });
    });
  });

  it('refuses by reason: signature, origin, version, imperative, hash, tombstoned', () => {
    withStore((store) => {
      const me = generateIdentity();
      const sender = generateIdentity();
      const other = generateIdentity();
      const fields = (sentence: string, extra: Record<string, string | number> = {}) => ({
        v: 1,
        hash: lessonHash('error', sentence),
        key: sender.key,
        origin: sender.origin,
        kind: 'error',
        text: sentence,
        seen: 1,
        strength: 1,
        updated: at(0),
        ...extra,
      });
      const tombstoned = 'The linter fails on generated files.';
      addTombstone(store.db, lessonHash('error', tombstoned), 'vetoed by the owner', null, at(0));
      const lines = [
        lessonLine(sender).replace('time out', 'time-out'),
        signAnything(other, fields('The docs build needs Node 18.')),
        signAnything(other, fields('The docs build needs Node 18.', { key: other.key })),
        signAnything(sender, fields('The docs build needs Node 18.', { v: 2 })),
        signAnything(sender, fields('Never push to main without a review.')),
        signAnything(sender, fields('The docs build needs Node 18.', { hash: lessonHash('error', 'x') })),
        lessonLine(sender, tombstoned),
        lessonLine(sender, 'The end-to-end suite needs a display server.'),
      ];
      const report = receive(store, me, [fileOf(sender, lines)], { now: at(1), params });
      expect(report.byReason).toEqual({
        signature: 2,
        origin: 1,
        version: 1,
        imperative: 1,
        hash: 1,
        tombstoned: 1,
      });
      expect(report.received).toBe(1);
      const refusals = store.db.prepare("SELECT COUNT(*) AS n FROM audit WHERE action = 'refuse'").get() as {
        n: number;
      };
      expect(refusals.n).toBe(7);
      receive(store, me, [fileOf(sender, lines)], { now: at(2), params });
      const again = store.db.prepare("SELECT COUNT(*) AS n FROM audit WHERE action = 'refuse'").get() as {
        n: number;
      };
      expect(again.n).toBe(7);
    });
  });

  it('ignores its own records when they come back', () => {
    withStore((store) => {
      const me = generateIdentity();
      const report = receive(store, me, [fileOf(me, [lessonLine(me)])], { now: at(1), params });
      expect(report).toMatchObject({ received: 0, refused: 0 });
      expect(listLessons(store.db)).toEqual([]);
    });
  });

  it('takes a newer record of a lesson it holds without a new lesson or a raise', () => {
    withStore((store) => {
      const me = generateIdentity();
      const sender = generateIdentity();
      receive(store, me, [fileOf(sender, [lessonLine(sender)])], { now: at(1), params });
      const newer = lessonLine(sender, text, at(5), 2.5);
      const report = receive(store, me, [fileOf(sender, [newer])], { now: at(6), params });
      expect(report).toMatchObject({ received: 0, updated: 1, raised: [] });
      expect(recordsOf(store.db, sender.origin)[0]!.line).toBe(newer);
      expect(listLessons(store.db)[0]!.strength).toBe(0.5);
      // An older line never replaces a newer one.
      receive(store, me, [fileOf(sender, [lessonLine(sender)])], { now: at(7), params });
      expect(recordsOf(store.db, sender.origin)[0]!.line).toBe(newer);
    });
  });
});

describe('the merge rule', () => {
  it('the same hash from another memory corroborates a local lesson: +0.5, once per memory', () => {
    withStore((store) => {
      const me = generateIdentity();
      const b = generateIdentity();
      const c = generateIdentity();
      const id = ownLesson(store.db, { text, strength: 1.5 });
      receive(store, me, [fileOf(b, [lessonLine(b)])], { now: at(1), params });
      expect(getLesson(store.db, id)!.strength).toBe(2);
      receive(store, me, [fileOf(b, [lessonLine(b, text, at(3), 3)])], { now: at(4), params });
      expect(getLesson(store.db, id)!.strength).toBe(2);
      // A confirmation from the same memory adds nothing more; from a third one it does.
      const confirmB = signRecord(b, { confirm: lessonHash('error', text), updated: at(4) });
      const confirmC = signRecord(c, { confirm: lessonHash('error', text), updated: at(4) });
      receive(store, me, [fileOf(b, [confirmB]), fileOf(c, [confirmC])], { now: at(5), params });
      expect(getLesson(store.db, id)!.strength).toBe(2.5);
      expect(provenanceOf(store.db, id)).toEqual({
        origin: 'self',
        confirmedBy: [b.origin, c.origin].sort((x, y) => (x < y ? -1 : 1)),
        corroboratedBy: [b.origin],
      });
      expect(listLessons(store.db)).toHaveLength(1);
    });
  });

  it('a confirmation that arrives before its lesson counts when the lesson comes', () => {
    withStore((store) => {
      const me = generateIdentity();
      const sender = generateIdentity();
      const third = generateIdentity();
      const confirm = signRecord(third, { confirm: lessonHash('error', text), updated: at(2) });
      const self = signRecord(sender, { confirm: lessonHash('error', text), updated: at(2) });
      receive(store, me, [fileOf(third, [confirm])], { now: at(3), params });
      expect(listLessons(store.db)).toEqual([]);
      receive(store, me, [fileOf(sender, [lessonLine(sender), self])], { now: at(4), params });
      const [lesson] = listLessons(store.db);
      // 0.5 as a candidate, +0.5 from the third memory; the origin confirming itself counts for nothing.
      expect(lesson!.strength).toBe(1);
      expect(provenanceOf(store.db, lesson!.id).confirmedBy).toEqual([third.origin]);
    });
  });

  it("a revocation by a lesson's origin drops it here and tombstones its hash; by anyone else, nothing", () => {
    withStore((store) => {
      const me = generateIdentity();
      const sender = generateIdentity();
      const stranger = generateIdentity();
      const hash = lessonHash('error', text);
      receive(store, me, [fileOf(sender, [lessonLine(sender)])], { now: at(1), params });
      const byStranger = signRecord(stranger, { revoke: hash, updated: at(2) });
      expect(receive(store, me, [fileOf(stranger, [byStranger])], { now: at(2), params })).toMatchObject({
        revocations: 1,
        dropped: 0,
      });
      expect(listLessons(store.db)[0]!.vetoedAt).toBeNull();

      const byOrigin = signRecord(sender, { revoke: hash, updated: at(3) });
      const report = receive(store, me, [fileOf(sender, [lessonLine(sender), byOrigin])], {
        now: at(3),
        params,
      });
      expect(report).toMatchObject({ revocations: 1, dropped: 1 });
      const [lesson] = listLessons(store.db);
      expect(lesson!.vetoedAt).toBe(at(3));
      expect(recordsOf(store.db, sender.origin).map((record) => record.kind)).toEqual(['revoke']);
      expect(
        receive(store, me, [fileOf(sender, [lessonLine(sender)])], { now: at(4), params }).byReason,
      ).toEqual({
        tombstoned: 1,
      });
    });
  });

  it('a revocation held before its lesson arrives keeps the lesson out', () => {
    withStore((store) => {
      const me = generateIdentity();
      const sender = generateIdentity();
      const revocation = signRecord(sender, { revoke: lessonHash('error', text), updated: at(3) });
      receive(store, me, [fileOf(sender, [revocation])], { now: at(3), params });
      const report = receive(store, me, [fileOf(sender, [lessonLine(sender)])], { now: at(4), params });
      expect(report.byReason).toEqual({ revoked: 1 });
      expect(listLessons(store.db)).toEqual([]);
    });
  });

  it("a memory's own revocation is never undone by its lesson coming back", () => {
    withStore((store) => {
      const me = generateIdentity();
      const b = generateIdentity();
      const id = ownLesson(store.db, { text });
      revoke(store, me, String(id), at(1));
      const report = receive(store, me, [fileOf(b, [lessonLine(b)])], { now: at(2), params });
      expect(report.byReason).toEqual({ tombstoned: 1 });
      expect(listLessons(store.db)).toHaveLength(1);
    });
  });

  it('revocations by a quorum of a received lesson’s confirmers drop it, in whatever order they come', () => {
    const hash = lessonHash('error', text);
    const sender = generateIdentity();
    const confirmers = Array.from({ length: 4 }, () => generateIdentity());
    const stranger = generateIdentity();
    const confirms = confirmers.map((c) => fileOf(c, [signRecord(c, { confirm: hash, updated: at(1) })]));
    const revokes = (who: Identity[]) =>
      who.map((c) => fileOf(c, [signRecord(c, { revoke: hash, updated: at(2) })]));
    const lesson = fileOf(sender, [lessonLine(sender)]);

    // Two of four confirmers, and a stranger who never confirmed it, are not a quorum.
    withStore((store) => {
      const me = generateIdentity();
      const report = receive(
        store,
        me,
        [lesson, ...confirms, ...revokes([...confirmers.slice(0, 2), stranger])],
        {
          now: at(3),
          params,
        },
      );
      expect(report).toMatchObject({ received: 1, dropped: 0 });
      expect(listLessons(store.db)[0]!.vetoedAt).toBeNull();
      // A third is: more than half of four, and at least three.
      const third = receive(store, me, revokes([confirmers[2]!]), { now: at(4), params });
      expect(third).toMatchObject({ revocations: 1, dropped: 1 });
      expect(listLessons(store.db)[0]!.vetoedAt).toBe(at(4));
      expect(receive(store, me, [lesson], { now: at(5), params }).byReason).toEqual({ tombstoned: 1 });
    });

    // The votes first and the lesson last: the same state.
    withStore((store) => {
      const me = generateIdentity();
      receive(store, me, [...revokes(confirmers.slice(0, 3)), ...confirms], { now: at(3), params });
      const report = receive(store, me, [lesson], { now: at(4), params });
      expect(report).toMatchObject({ received: 1, dropped: 1 });
      expect(listLessons(store.db)[0]!.vetoedAt).toBe(at(4));
    });

    // The memory that published it is a holder too: a quorum drops its own lesson, but a minority does not.
    withStore((store) => {
      const me = generateIdentity();
      ownLesson(store.db, { text });
      const two = receive(store, me, [...confirms, ...revokes(confirmers.slice(0, 2))], {
        now: at(3),
        params,
      });
      expect(two.dropped).toBe(0);
      expect(listLessons(store.db)[0]!.vetoedAt).toBeNull();
      const report = receive(store, me, revokes(confirmers.slice(2)), { now: at(4), params });
      expect(report.dropped).toBe(1);
      expect(listLessons(store.db)[0]!.vetoedAt).toBe(at(4));
    });
  });
});
