import { describe, expect, it } from 'vitest';
import { createClock, type EpisodeDraft, resolveConfig } from '../../src/core/index.ts';
import { sleep } from '../../src/sleep/index.ts';
import {
  appendAudit,
  assignEpisode,
  insertEpisodeOnce,
  listLessons,
  listPredictions,
  listRelations,
  openStore,
  type Store,
} from '../../src/store/index.ts';
import { projectTruth } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storeLesson, storeReceived } from './fixtures.ts';

const tempDir = useTempDirs();

function open(): { store: Store; home: string } {
  const home = tempDir();
  return { store: openStore(home), home };
}

async function night(store: Store, home: string, n: number): Promise<void> {
  const config = resolveConfig({ REMEM_HOME: home, HOME: home });
  await sleep(store, config, createClock(day(n + 1, 4)));
}

let key = 0;
function episode(
  store: Store,
  fields: Partial<EpisodeDraft> & Pick<EpisodeDraft, 'kind' | 'happenedAt'>,
): number {
  const draft: EpisodeDraft = {
    key: `k${++key}`,
    agent: 'claude-code',
    session: `s${key}`,
    project: '/p',
    title: fields.said ?? fields.text ?? '',
    text: fields.said ?? fields.text ?? '',
    detail: {},
    source: {},
    ...fields,
  };
  insertEpisodeOnce(store.db, draft, 'event', fields.happenedAt);
  return (store.db.prepare('SELECT id FROM episodes WHERE key = ?').get(draft.key) as { id: number }).id;
}

const correction = (said: string, at: string) => ({ kind: 'correction' as const, said, happenedAt: at });

describe('sleep relates lessons of one subject that say opposite things', () => {
  it('a newer correction that says otherwise is a lesson of its own and supersedes the older', async () => {
    const { store, home } = open();
    episode(store, correction('no, the tests run in parallel here', day(0)));
    await night(store, home, 0);
    episode(store, correction('the tests do not run in parallel anymore, they share one database', day(5)));
    await night(store, home, 5);
    const [older, newer] = listLessons(store.db);
    expect(older?.seen, 'the reversal must not join the lesson it reverses').toBe(1);
    expect(newer?.text).toContain('do not run in parallel');
    const relations = listRelations(store.db, { kinds: ['supersedes'] });
    expect(relations).toMatchObject([{ fromId: newer!.id, toId: older!.id, actor: 'sleep' }]);
    expect(relations[0]!.happenedAt).toBe(day(5));
    expect(relations[0]!.recordedAt).toBe(day(6, 4));
    const audit = store.db.prepare("SELECT * FROM audit WHERE action = 'supersede'").all();
    expect(audit).toHaveLength(1);
    // Opposite words are evidence against the older lesson, never a confirmation of it.
    expect(listPredictions(store.db, { lessonId: older!.id }).map((p) => p.state)).not.toContain('confirmed');
    const truth = new Map(projectTruth(store.db, { now: day(6, 5) }).map((row) => [row.lesson.id, row]));
    expect(truth.get(older!.id)).toMatchObject({ validity: 'superseded', supersededBy: newer!.id });
    expect(truth.get(newer!.id)).toMatchObject({ validity: 'current', resolution: 'explicit_supersedes' });
    await night(store, home, 6);
    expect(listRelations(store.db), 'a pair is related once').toHaveLength(1);
    store.close();
  });

  it('the same correction again still joins its lesson', async () => {
    const { store, home } = open();
    episode(store, correction('no, this project uses uv, not pip', day(0)));
    episode(store, correction('no, this project uses uv, not pip', day(1)));
    await night(store, home, 1);
    expect(listLessons(store.db).map((lesson) => lesson.seen)).toEqual([2]);
    expect(listRelations(store.db)).toEqual([]);
    store.close();
  });

  it('a received lesson that says the opposite of one of ours refutes it', async () => {
    const { store, home } = open();
    const received = storeReceived(store.db, {
      text: 'The agent found it had been wrong: "the tests do not run in parallel"',
    });
    store.db.prepare("UPDATE lessons SET review = 'approved' WHERE id = ?").run(received);
    episode(store, { kind: 'surprise', text: 'the tests run in parallel', happenedAt: day(0) });
    episode(store, { kind: 'surprise', text: 'the tests run in parallel', happenedAt: day(0, 12) });
    await night(store, home, 0);
    const ours = listLessons(store.db).find((lesson) => lesson.origin === 'self')!;
    expect(listRelations(store.db, { kinds: ['refutes'] })).toMatchObject([
      { fromId: ours.id, toId: received },
    ]);
    const truth = projectTruth(store.db, { now: day(1, 5) });
    expect(truth.map((row) => row.validity)).toEqual(['contradicted', 'contradicted']);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM audit WHERE action = 'relate'").get()).toEqual({
      n: 1,
    });
    store.close();
  });

  it('lessons of two projects are never related', async () => {
    const { store, home } = open();
    for (const [project, text] of [
      ['/a', 'the tests run in parallel'],
      ['/b', 'the tests do not run in parallel'],
    ] as const) {
      episode(store, { kind: 'surprise', text, project, happenedAt: day(0) });
      episode(store, { kind: 'surprise', text, project, happenedAt: day(0, 12) });
    }
    await night(store, home, 0);
    expect(listLessons(store.db)).toHaveLength(2);
    expect(listRelations(store.db)).toEqual([]);
    store.close();
  });

  it('a merged theme derives from the lesson it took in', async () => {
    const { store, home } = open();
    const words = 'no, the staging token lives in the vault';
    const a = storeLesson(store.db, { id: 1, text: `The person told the agent: "${words}"`, at: day(0) });
    const b = storeLesson(store.db, { id: 2, text: `The person told the agent: "${words}!"`, at: day(1) });
    assignEpisode(store.db, episode(store, correction(words, day(0))), a);
    assignEpisode(store.db, episode(store, correction(words, day(1))), b);
    appendAudit(store.db, { at: day(1), actor: 'sleep', action: 'add', rules: 'test', lessonId: b });
    await night(store, home, 2);
    expect(listRelations(store.db)).toMatchObject([
      { kind: 'derived_from', fromId: a, toId: b, actor: 'sleep' },
    ]);
    const truth = new Map(projectTruth(store.db, { now: day(3, 5) }).map((row) => [row.lesson.id, row]));
    expect(truth.get(b)).toMatchObject({ validity: 'superseded', supersededBy: a, heldBecause: 'merged' });
    expect(truth.get(b)!.subject).toBe(truth.get(a)!.subject);
    store.close();
  });
});

describe('a correction said again on a later night', () => {
  it('turns its lesson into a theme that quotes both and counts them, and says what it was', async () => {
    const { store, home } = open();
    episode(store, correction('no, this project uses uv, not pip', day(0)));
    await night(store, home, 0);
    const [first] = listLessons(store.db);
    expect(first?.text).toBe('The person told the agent: "no, this project uses uv, not pip"');
    episode(store, correction('this project uses uv, not pip!', day(3)));
    await night(store, home, 3);
    const [theme] = listLessons(store.db);
    expect(theme?.id).toBe(first!.id);
    expect(theme?.seen).toBe(2);
    expect(theme?.text).toBe(
      'The person corrected the agent 2 times about the same thing: "no, this project uses uv, not pip"; "this project uses uv, not pip!".',
    );
    expect(theme?.hash).not.toBe(first!.hash);
    const join = store.db.prepare("SELECT hash, reason FROM audit WHERE action = 'join'").get() as {
      hash: string;
      reason: string;
    };
    expect(join.hash).toBe(theme!.hash);
    expect(join.reason).toContain(`was ${first!.hash}`);
    store.close();
  });
});

describe('corrections that state one rule about a command in other words', () => {
  it('become one theme, while a complaint that only names the command stays apart', async () => {
    const { store, home } = open();
    episode(store, correction('please use pnpm, not npm — this repo has a pnpm lockfile', day(0)));
    episode(store, {
      kind: 'correction',
      said: "it's pnpm in this repo, I told you last time. pnpm add p-retry",
      detail: { refusedTool: 'Bash', refusedCall: 'npm install p-retry' },
      happenedAt: day(0, 11),
    });
    // Names pnpm, states no rule: a report about one run, not the same thing.
    episode(store, correction('the pnpm build still fails on the login page', day(0, 12)));
    await night(store, home, 0);
    const live = listLessons(store.db).filter((lesson) => lesson.mergedInto === null);
    expect(live.map((lesson) => lesson.seen).sort()).toEqual([1, 2]);
    const theme = live.find((lesson) => lesson.seen === 2);
    expect(theme?.text).toContain('"please use pnpm, not npm');
    expect(theme?.text).toContain('"it\'s pnpm in this repo');
    expect(theme?.text).not.toContain('login page');
    store.close();
  });
});
