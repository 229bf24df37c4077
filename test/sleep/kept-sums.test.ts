import { describe, expect, it } from 'vitest';
import { createClock, type EpisodeDraft, resolveConfig } from '../../src/core/index.ts';
import { fromBlob, hashedVector, toBlob, VectorSum } from '../../src/embed/index.ts';
import { sleep } from '../../src/sleep/index.ts';
import {
  assignEpisode,
  type Db,
  decodeSum,
  insertEpisodeOnce,
  openStore,
  putVector,
} from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { seeded } from '../helpers/random.ts';

const tempDir = useTempDirs();

function day(n: number, hour = 10): string {
  return new Date(Date.UTC(2026, 2, 1 + n, hour)).toISOString();
}

const corrections = [
  ['no, this project uses uv, not pip', 'we use uv here, not pip', 'uv, not pip, please'],
  ['the tests run with vitest, not jest', 'we run vitest, not jest', 'not jest: vitest'],
  ['keep the changelog in docs, not the root', 'the changelog lives in docs', 'changelog goes in docs'],
  ['do not push to main directly', 'never push to main, open a branch', 'no pushing to main'],
  ['use tabs in the makefile', 'the makefile needs tabs, not spaces', 'tabs in makefile please'],
];
const failures = [
  ['npm test', 'Error: Cannot find module ./dist/index.js'],
  ['cargo build', 'error[E0433]: failed to resolve: use of undeclared crate'],
  ['psql -c select', 'FATAL: role "app" does not exist'],
];
const surprises = [
  'I was wrong: the config is read from config/local.toml, not from the environment',
  'I was wrong, the migration had already run before the cache was built',
];

/** One day's surprises: mostly the same ones again, in other words, some new each week. */
function dayOf(n: number, random: () => number): EpisodeDraft[] {
  const drafts: EpisodeDraft[] = [];
  const base = {
    agent: 'claude-code',
    project: '/tmp/remem-kept-sums',
    detail: {},
    source: {},
  };
  const count = 2 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    const session = `d${n}-s${i}`;
    const at = day(n, 8 + i);
    const pick = random();
    if (pick < 0.5) {
      const theme = corrections[Math.floor(random() * corrections.length)]!;
      const said = theme[Math.floor(random() * theme.length)]!;
      const fresh = random() < 0.15 ? ` (week ${Math.floor(n / 7)} case ${i})` : '';
      drafts.push({
        ...base,
        key: `c-${n}-${i}`,
        kind: 'correction',
        session,
        happenedAt: at,
        title: said,
        text: said + fresh,
        said: said + fresh,
        agentBefore: 'I will go ahead with the usual setup.',
      });
    } else if (pick < 0.85) {
      const [call, failed] = failures[Math.floor(random() * failures.length)]!;
      drafts.push({
        ...base,
        key: `e-${n}-${i}`,
        kind: 'error',
        session,
        happenedAt: at,
        title: `${call} failed`,
        text: failed!,
        detail: { tool: 'Bash', description: call },
      });
    } else {
      const said = surprises[Math.floor(random() * surprises.length)]!;
      drafts.push({
        ...base,
        key: `s-${n}-${i}`,
        kind: 'surprise',
        session,
        happenedAt: at,
        title: said,
        text: said,
      });
    }
  }
  return drafts;
}

/** What sleep decided, in a form two memories can be compared by. */
function decisions(db: Db): unknown {
  return {
    lessons: db
      .prepare(
        'SELECT id, hash, kind, text, seen, strength, archived, merged_into, happened_at FROM lessons ORDER BY id',
      )
      .all(),
    sources: db.prepare('SELECT id, lesson_id FROM episodes ORDER BY id').all(),
    relations: db.prepare('SELECT kind, from_id, to_id, reason FROM relations ORDER BY id').all(),
    predictions: db
      .prepare('SELECT lesson_id, made_at, state, resolved_at, episode_id FROM predictions ORDER BY id')
      .all(),
    lessonVectors: db
      .prepare("SELECT owner_id, data FROM vectors WHERE owner = 'lesson' ORDER BY owner_id")
      .all(),
  };
}

describe('a night reads each lesson’s kept sum instead of every source again', () => {
  it('decides exactly as a night that adds every source up again, over weeks of joins, merges and predictions', async () => {
    const kept = openStore(tempDir());
    const rebuilt = openStore(tempDir());
    const random = seeded(7);
    let keptBeforeNight = 0;
    for (let n = 0; n < 40; n++) {
      const drafts = dayOf(n, random);
      for (const store of [kept, rebuilt]) {
        for (const draft of drafts) insertEpisodeOnce(store.db, draft, 'event', day(n, 20));
      }
      // One memory forgets every kept sum before each night, so its nights add up every source again.
      rebuilt.db.prepare('DELETE FROM lesson_sums').run();
      keptBeforeNight += (kept.db.prepare('SELECT COUNT(*) AS n FROM lesson_sums').get() as { n: number }).n;
      for (const store of [kept, rebuilt]) {
        await sleep(
          store,
          resolveConfig({ REMEM_HOME: store.home, HOME: store.home }),
          createClock(day(n + 1, 4)),
        );
      }
    }
    expect(keptBeforeNight, 'the nights had kept sums to read').toBeGreaterThan(100);
    const confirmed = (
      kept.db.prepare("SELECT COUNT(*) AS n FROM predictions WHERE state = 'confirmed'").get() as {
        n: number;
      }
    ).n;
    expect(confirmed, 'predictions were confirmed').toBeGreaterThan(0);
    expect(decisions(kept.db)).toEqual(decisions(rebuilt.db));
    // Every kept sum after the last night is, to the last bit, the one its lesson's sources add up to.
    const rows = kept.db.prepare('SELECT lesson_id, dims, count, squares, sum FROM lesson_sums').all() as {
      lesson_id: number;
      dims: number;
      count: number;
      squares: number;
      sum: Buffer;
    }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const vectors = (
        kept.db
          .prepare(
            `SELECT v.data FROM episodes e JOIN vectors v ON v.owner = 'episode' AND v.owner_id = e.id
             WHERE e.lesson_id = ? AND e.live = 1 AND e.kind IN ('error', 'correction', 'surprise')`,
          )
          .all(row.lesson_id) as { data: Buffer }[]
      ).map((vector) => fromBlob(vector.data, row.dims)!);
      const state = VectorSum.of(vectors, row.dims).state;
      expect(row.count).toBe(state.count);
      expect(decodeSum(row.sum, row.dims)).toEqual(state.sum);
    }
    kept.close();
    rebuilt.close();
  });

  it('drops a kept sum whenever its lesson’s sources change, whoever changes them', async () => {
    const home = tempDir();
    const store = openStore(home);
    const { db } = store;
    const random = seeded(3);
    for (let n = 0; n < 6; n++) {
      for (const draft of dayOf(n, random)) insertEpisodeOnce(db, draft, 'event', day(n, 20));
      await sleep(store, resolveConfig({ REMEM_HOME: home, HOME: home }), createClock(day(n + 1, 4)));
    }
    const keptFor = (lessonId: number) =>
      db.prepare('SELECT 1 FROM lesson_sums WHERE lesson_id = ?').get(lessonId) !== undefined;
    const sourcesOf = (lessonId: number) =>
      (
        db.prepare('SELECT id FROM episodes WHERE lesson_id = ? ORDER BY id').all(lessonId) as {
          id: number;
        }[]
      ).map((row) => row.id);
    const lessons = (
      db
        .prepare(
          'SELECT lesson_id AS id, COUNT(*) AS n FROM episodes WHERE lesson_id IS NOT NULL GROUP BY lesson_id HAVING n >= 2 ORDER BY id',
        )
        .all() as { id: number }[]
    ).map((row) => row.id);
    expect(lessons.length).toBeGreaterThanOrEqual(2);
    for (const id of lessons) expect(keptFor(id)).toBe(true);
    const [a, b] = lessons as [number, number];
    const resleep = async () => {
      await sleep(store, resolveConfig({ REMEM_HOME: home, HOME: home }), createClock(day(7, 4)));
      expect(keptFor(a) && keptFor(b)).toBe(true);
    };
    // An episode given to another lesson: both lose their sums.
    assignEpisode(db, sourcesOf(a)[0]!, b);
    expect(keptFor(a)).toBe(false);
    expect(keptFor(b)).toBe(false);
    await resleep();
    // An episode no longer live, or of another kind.
    db.prepare('UPDATE episodes SET live = 0 WHERE id = ?').run(sourcesOf(a)[0]!);
    expect(keptFor(a)).toBe(false);
    await resleep();
    db.prepare("UPDATE episodes SET kind = 'note' WHERE id = ?").run(sourcesOf(b)[0]!);
    expect(keptFor(b)).toBe(false);
    await resleep();
    // A source's vector written again, or removed.
    const source = sourcesOf(a).at(-1)!;
    putVector(db, 'episode', source, 'hashed', 256, toBlob(hashedVector('another text', 256)));
    expect(keptFor(a)).toBe(false);
    await resleep();
    db.prepare("DELETE FROM vectors WHERE owner = 'episode' AND owner_id = ?").run(source);
    expect(keptFor(a)).toBe(false);
    await resleep();
    store.close();
  });
});
