import { describe, expect, it } from 'vitest';
import { appendAudit, insertRelation, openStore, type Store } from '../../src/store/index.ts';
import { projectTruth, type Visible, visibleToAgent } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storeLesson, storePrediction, storeReceived } from './fixtures.ts';

const tempDir = useTempDirs();

function open(): Store {
  return openStore(tempDir());
}

function relate(
  store: Store,
  kind: 'refutes' | 'supersedes' | 'supports',
  fromId: number,
  toId: number,
  at = day(1),
) {
  insertRelation(store.db, {
    kind,
    fromId,
    toId,
    actor: 'person',
    rules: 'test',
    reason: '',
    happenedAt: at,
    recordedAt: at,
  });
}

const texts = (visible: Visible[]) =>
  visible.map((item) => (item.type === 'lesson' ? item.lesson.text : item.text));

describe('projectTruth', () => {
  it('gives every lesson its validity, retention, review state, scope and reason', () => {
    const store = open();
    const personal = storeLesson(store.db, { id: 1 });
    const project = storeLesson(store.db, { id: 2, kind: 'error', project: '/a', archived: true });
    const [a, b] = projectTruth(store.db, { now: day(2) });
    expect(a).toMatchObject({
      lesson: { id: personal },
      validity: 'current',
      retention: 'active',
      resolution: 'only_surviving',
      scope: 'personal',
      reach: 'lesson',
      heldBecause: null,
    });
    expect(b).toMatchObject({
      lesson: { id: project, review: 'approved' },
      validity: 'current',
      retention: 'archived',
      scope: 'project',
      reach: 'held',
      heldBecause: 'archived',
    });
    store.close();
  });

  it('reads as of a time: lessons learned by then, relations recorded by then, review replayed from the audit', () => {
    const store = open();
    const older = storeLesson(store.db, { id: 1, at: day(0) });
    const newer = storeLesson(store.db, { id: 2, at: day(5) });
    relate(store, 'supersedes', newer, older, day(6));
    const received = storeReceived(store.db, { text: 'The agent found it had been wrong: "x"', at: day(1) });
    store.db.prepare("UPDATE lessons SET review = 'approved' WHERE id = ?").run(received);
    appendAudit(store.db, {
      at: day(7),
      actor: 'person',
      action: 'approve',
      rules: 'test',
      lessonId: received,
    });
    storePrediction(store.db, older, day(1), { state: 'failed', at: day(8) });

    const at3 = projectTruth(store.db, { now: day(9), asOf: day(3) });
    expect(at3.map((row) => [row.lesson.id, row.validity, row.lesson.review])).toEqual([
      [older, 'current', 'approved'],
      [received, 'unknown', 'pending_review'],
    ]);
    const at55 = projectTruth(store.db, { now: day(9), asOf: day(5, 12) });
    expect(at55.find((row) => row.lesson.id === older)?.validity).toBe('current');
    const at65 = projectTruth(store.db, { now: day(9), asOf: day(6, 12) });
    expect(at65.find((row) => row.lesson.id === older)).toMatchObject({
      validity: 'superseded',
      supersededBy: newer,
    });
    const now = projectTruth(store.db, { now: day(9) });
    expect(now.find((row) => row.lesson.id === received)).toMatchObject({
      validity: 'current',
      lesson: { review: 'approved' },
    });
    store.close();
  });

  it('a scope leaves out other projects; no scope is the owner seeing every project', () => {
    const store = open();
    storeLesson(store.db, { id: 1 });
    storeLesson(store.db, { id: 2, kind: 'surprise', project: '/a' });
    storeLesson(store.db, { id: 3, kind: 'surprise', project: '/b' });
    expect(projectTruth(store.db, { now: day(1) })).toHaveLength(3);
    const inA = projectTruth(store.db, { now: day(1), scope: { project: '/a' } });
    expect(inA.map((row) => row.lesson.project)).toEqual([null, '/a']);
    expect(projectTruth(store.db, { now: day(1), scope: { project: null } }).map((row) => row.scope)).toEqual(
      ['personal'],
    );
    store.close();
  });
});

describe('visibleToAgent', () => {
  it('shows current, approved, unvetoed, unmerged, active lessons of its scope, strongest first', () => {
    const store = open();
    storeLesson(store.db, { id: 1, text: 'The person told the agent: "weak"', strength: 0.5 });
    storeLesson(store.db, { id: 2, text: 'The person told the agent: "strong"', strength: 2 });
    storeLesson(store.db, { id: 3, text: 'The person told the agent: "vetoed"', vetoedAt: day(1) });
    storeLesson(store.db, { id: 4, text: 'The person told the agent: "archived"', archived: true });
    storeLesson(store.db, { id: 5, text: 'The person told the agent: "merged"', mergedInto: 2 });
    storeLesson(store.db, {
      id: 6,
      kind: 'surprise',
      text: 'The agent found: "other project"',
      project: '/b',
    });
    storeReceived(store.db, { text: 'The agent found it had been wrong: "pending"' });
    const stale = storeLesson(store.db, {
      id: 8,
      kind: 'error',
      text: 'The agent\'s Bash call "make" failed: "stale"',
      project: '/a',
    });
    storePrediction(store.db, stale, day(0), { state: 'failed', at: day(14) });
    expect(texts(visibleToAgent(store.db, { now: day(20), scope: { project: '/a' } }))).toEqual([
      'The person told the agent: "strong"',
      'The person told the agent: "weak"',
    ]);
    store.close();
  });

  it('puts two surviving lessons that refute each other as one question, never as lessons', () => {
    const store = open();
    const a = storeLesson(store.db, {
      id: 1,
      text: 'The person told the agent: "the tests run in parallel"',
    });
    const b = storeLesson(store.db, {
      id: 2,
      text: 'The person told the agent: "the tests do not run in parallel"',
    });
    storeLesson(store.db, { id: 3, text: 'The person told the agent: "unrelated"' });
    relate(store, 'refutes', b, a);
    const visible = visibleToAgent(store.db, { now: day(2), scope: { project: null } });
    expect(
      visible
        .filter((item) => item.type === 'lesson')
        .map((item) => item.type === 'lesson' && item.lesson.id),
    ).toEqual([3]);
    const question = visible.find((item) => item.type === 'question');
    expect(question?.type === 'question' && question.lessons.map((lesson) => lesson.id)).toEqual([a, b]);
    expect(question?.type === 'question' && question.text).toMatch(/open question/);
    // The person settles it: the newer supersedes the older.
    relate(store, 'supersedes', b, a, day(3));
    const settled = visibleToAgent(store.db, { now: day(4), scope: { project: null } });
    expect(settled.map((item) => item.type === 'lesson' && item.lesson.id)).toEqual([b, 3].sort());
    store.close();
  });

  it('a conflict in one project does not touch the personal lesson in another', () => {
    const store = open();
    const personal = storeLesson(store.db, { id: 1, kind: 'surprise', text: 'The agent found: "a"' });
    const local = storeLesson(store.db, {
      id: 2,
      kind: 'surprise',
      text: 'The agent found: "not a"',
      project: '/a',
    });
    relate(store, 'refutes', local, personal);
    expect(
      visibleToAgent(store.db, { now: day(2), scope: { project: '/a' } }).map((item) => item.type),
    ).toEqual(['question']);
    expect(
      visibleToAgent(store.db, { now: day(2), scope: { project: '/b' } }).map((item) => item.type),
    ).toEqual(['lesson']);
    store.close();
  });

  it('reads only indexed lesson columns: the query plan uses the lessons_reach index', () => {
    const store = open();
    const plan = store.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM lessons
         WHERE merged_into IS NULL AND vetoed_at IS NULL AND review = 'approved' AND (project IS NULL OR project = ?)`,
      )
      .all('/a') as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).toMatch(/lessons_reach/);
    store.close();
  });
});
