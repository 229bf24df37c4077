import { describe, expect, it } from 'vitest';
import { appendAudit, insertRelation, openStore } from '../../src/store/index.ts';
import { recordInjection } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storeLesson } from '../truth/fixtures.ts';

const tempDir = useTempDirs();

describe('MUST NOT: a logged fact is changed or removed', () => {
  it('UPDATE and DELETE on the audit log, the relations and the injection log fail', () => {
    const store = openStore(tempDir());
    const a = storeLesson(store.db, { id: 1 });
    const b = storeLesson(store.db, { id: 2 });
    appendAudit(store.db, { at: day(0), actor: 'sleep', action: 'add', rules: 'test', lessonId: a });
    insertRelation(store.db, {
      kind: 'supports',
      fromId: a,
      toId: b,
      actor: 'person',
      rules: 'test',
      reason: '',
      happenedAt: day(0),
      recordedAt: day(0),
    });
    recordInjection(store.db, {
      at: day(0),
      session: 's',
      moment: 'prompt',
      shown: true,
      lessonHashes: [],
      considered: 0,
      dropped: 0,
      reasons: {},
    });
    const attempts = [
      "UPDATE audit SET reason = 'rewritten'",
      'DELETE FROM audit',
      "UPDATE relations SET kind = 'refutes'",
      'DELETE FROM relations',
      'UPDATE injections SET shown = 0',
      'DELETE FROM injections',
    ];
    for (const sql of attempts) {
      expect(() => store.db.prepare(sql).run(), `MUST NOT allow: ${sql}`).toThrow(/append-only/);
    }
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM audit').get()).toEqual({ n: 1 });
    store.close();
  });
});
