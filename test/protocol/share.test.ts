import { describe, expect, it } from 'vitest';
import { generateIdentity, parseRecordLine, signRecord } from '../../src/protocol/index.ts';
import { receive, revoke, share } from '../../src/share/index.ts';
import {
  auditOfLesson,
  disableSharing,
  enableSharing,
  getLesson,
  recordsOf,
  type Store,
} from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { at, confirmHere, fileOf, openTempStore, ownLesson, params } from './share-fixtures.ts';

const tempDir = useTempDirs();

function withStore(test: (store: Store) => void): void {
  const store = openTempStore(tempDir());
  try {
    test(store);
  } finally {
    store.close();
  }
}

const project = '/work/project';

describe('share: what consent allows, and only the sentence', () => {
  it('shares nothing by default, and a project once enabled', () => {
    withStore((store) => {
      const me = generateIdentity();
      ownLesson(store.db, { text: 'The build fails when the cache directory is missing.' });
      ownLesson(store.db, { kind: 'surprise', text: 'The staging database is a copy from last month.' });
      ownLesson(store.db, { text: 'The deploy script times out on the first run.', project: '/work/other' });
      const none = share(store, me, { now: at(1), params });
      expect(none).toMatchObject({ lines: [], lessons: 0, notEnabled: 3, projects: [] });

      enableSharing(store.db, project, at(1));
      const some = share(store, me, { now: at(1), params });
      expect(some).toMatchObject({ lessons: 2, notEnabled: 1, projects: [project] });
      const parsed = some.lines.map((line) => parseRecordLine(line));
      expect(parsed.map((record) => ('refused' in record ? record.code : record.kind))).toEqual([
        'lesson',
        'lesson',
      ]);
      for (const line of some.lines) {
        expect(Object.keys(JSON.parse(line)).sort()).toEqual(
          ['hash', 'key', 'kind', 'origin', 'seen', 'sig', 'strength', 'text', 'updated', 'v'].sort(),
        );
        expect(line).not.toContain(project);
      }

      disableSharing(store.db, project);
      expect(share(store, me, { now: at(2), params })).toMatchObject({ lessons: 0, notEnabled: 3 });
      expect(recordsOf(store.db, me.origin)).toEqual([]);
    });
  });

  it('publishes corrections, personal ones included, only with --corrections', () => {
    withStore((store) => {
      const me = generateIdentity();
      const text =
        'The person said "this repo uses uv, not pip" after the agent said "I\'ll pip install it".';
      ownLesson(store.db, { kind: 'correction', text, project: null });
      enableSharing(store.db, project, at(1));
      expect(share(store, me, { now: at(1), params })).toMatchObject({ lessons: 0, corrections: 1 });
      expect(share(store, me, { now: at(1), params, corrections: true })).toMatchObject({
        lessons: 1,
        corrections: 0,
      });
    });
  });

  it('refuses a secret, an instruction and a local path with the reason, audited once', () => {
    withStore((store) => {
      const me = generateIdentity();
      enableSharing(store.db, project, at(1));
      const secret = ownLesson(store.db, {
        text: 'The agent\'s curl call failed: 401 with "Authorization: Bearer abcdef0123456789abcdef".',
      });
      const instruction = ownLesson(store.db, { text: 'Always run the linter before committing.' });
      const path = ownLesson(store.db, { text: 'The agent\'s cat call "cat /home/alice/notes.txt" failed.' });
      const here = ownLesson(store.db, { text: `The agent's ls call "ls ${project}/build" failed.` });
      const fine = ownLesson(store.db, { text: 'The build fails when the cache directory is missing.' });
      const result = share(store, me, { now: at(1), params });
      expect(result.lessons).toBe(1);
      expect(Object.fromEntries(result.refused.map((refusal) => [refusal.lessonId, refusal.code]))).toEqual({
        [secret]: 'secret',
        [instruction]: 'imperative',
        [path]: 'path',
        [here]: 'path',
      });
      share(store, me, { now: at(2), params });
      for (const id of [secret, instruction, path, here]) {
        const refusals = auditOfLesson(store.db, id).filter((row) => row.action === 'refuse');
        expect(refusals).toHaveLength(1);
        expect(refusals[0]).toMatchObject({ actor: 'share' });
      }
      expect(auditOfLesson(store.db, fine)).toEqual([]);
    });
  });

  it("keeps to the commons' limits: revocations and confirmations first, then the strongest lessons", () => {
    withStore((store) => {
      const me = generateIdentity();
      enableSharing(store.db, project, at(1));
      const weak = ownLesson(store.db, { text: 'The first test run downloads the browsers.', strength: 1 });
      ownLesson(store.db, { text: 'The build fails when the cache directory is missing.', strength: 3 });
      const gone = ownLesson(store.db, { text: 'The docs site builds only with Node 18.', strength: 2 });
      revoke(store, me, String(gone), at(1));
      const limited = { ...params, commons: { ...params.commons, maxRecords: 2 } };
      const result = share(store, me, { now: at(1), params: limited });
      expect(result).toMatchObject({ revocations: 1, lessons: 1, overLimit: 1 });
      expect(result.lines.join('\n')).not.toContain(getLesson(store.db, weak)!.text);
    });
  });

  it('confirms a received lesson that came true in a session of an enabled project', () => {
    withStore((store) => {
      const me = generateIdentity();
      const other = generateIdentity();
      const text = 'The integration tests time out when the database container is still starting.';
      const line = signRecord(other, { kind: 'error', text, seen: 2, strength: 1.5, updated: at(0) });
      receive(store, me, [fileOf(other, [line])], { now: at(1), params });
      const lessonId = (store.db.prepare('SELECT id FROM lessons').get() as { id: number }).id;
      confirmHere(store.db, lessonId, project, at(3));
      expect(share(store, me, { now: at(4), params })).toMatchObject({ confirmations: 0 });
      enableSharing(store.db, project, at(4));
      const result = share(store, me, { now: at(4), params });
      expect(result).toMatchObject({ confirmations: 1, lessons: 0 });
      const parsed = parseRecordLine(result.lines[0]!);
      expect('refused' in parsed ? parsed.refused : parsed.record).toMatchObject({
        confirm: JSON.parse(line).hash,
        origin: me.origin,
        updated: at(3),
      });
      // The same confirmation, byte for byte, on every later share.
      expect(share(store, me, { now: at(9), params }).lines).toEqual(result.lines);
    });
  });
});

describe('revoke', () => {
  it("withdraws this memory's own lesson, and only its own", () => {
    withStore((store) => {
      const me = generateIdentity();
      const other = generateIdentity();
      enableSharing(store.db, project, at(1));
      const id = ownLesson(store.db, { text: 'The build fails when the cache directory is missing.' });
      share(store, me, { now: at(1), params });
      const lesson = getLesson(store.db, id)!;
      const done = revoke(store, me, lesson.hash.slice(0, 8), at(2));
      expect(done.fresh).toBe(true);
      expect(getLesson(store.db, id)!.vetoedAt).toBe(at(2));
      expect(revoke(store, me, lesson.hash, at(3))).toMatchObject({ fresh: false, line: done.line });
      const after = share(store, me, { now: at(3), params });
      expect(after).toMatchObject({ lessons: 0, revocations: 1, lines: [done.line] });

      const line = signRecord(other, {
        kind: 'error',
        text: 'The docs site builds only with Node 18.',
        seen: 1,
        strength: 1,
        updated: at(0),
      });
      receive(store, me, [fileOf(other, [line])], { now: at(3), params });
      expect(() => revoke(store, me, JSON.parse(line).hash, at(4))).toThrow(
        /publishes no confirmation of it: a revocation by another memory counts only from one of its confirmers/,
      );
      expect(() => revoke(store, me, 'ffffffffffff', at(4))).toThrow(/no lesson/);
    });
  });

  it('casts a vote on a received lesson only once its confirmation is published, and keeps publishing that', () => {
    withStore((store) => {
      const me = generateIdentity();
      const other = generateIdentity();
      const text = 'The integration tests time out when the database container is still starting.';
      const line = signRecord(other, { kind: 'error', text, seen: 2, strength: 1.5, updated: at(0) });
      const hash = JSON.parse(line).hash as string;
      receive(store, me, [fileOf(other, [line])], { now: at(1), params });
      const lessonId = (store.db.prepare('SELECT id FROM lessons').get() as { id: number }).id;
      confirmHere(store.db, lessonId, project, at(3));
      // Came true here, but nothing says so to other memories yet.
      expect(() => revoke(store, me, hash, at(4))).toThrow(/no confirmation of it was published yet/);
      expect(getLesson(store.db, lessonId)!.vetoedAt).toBeNull();

      enableSharing(store.db, project, at(4));
      const confirmed = share(store, me, { now: at(4), params });
      expect(confirmed).toMatchObject({ confirmations: 1, revocations: 0 });
      const vote = revoke(store, me, hash.slice(0, 8), at(5));
      expect(vote).toMatchObject({ fresh: true, as: 'confirmer', lesson: { id: lessonId } });
      expect(getLesson(store.db, lessonId)!.vetoedAt).toBe(at(5));
      expect(revoke(store, me, String(lessonId), at(6))).toMatchObject({ fresh: false, line: vote.line });
      // The lesson record of its origin is still held: a vote withdraws nothing of another memory's.
      expect(recordsOf(store.db, other.origin).map((record) => record.kind)).toEqual(['lesson']);

      const after = share(store, me, { now: at(6), params });
      expect(after).toMatchObject({ revocations: 1, confirmations: 1, lessons: 0 });
      expect(after.lines).toEqual([vote.line, confirmed.lines[0]]);
      // The same text arriving again is refused here.
      const again = receive(store, me, [fileOf(other, [line])], { now: at(7), params });
      expect(again.byReason).toEqual({ tombstoned: 1 });
      expect(share(store, me, { now: at(8), params }).lines).toEqual(after.lines);
    });
  });
});
