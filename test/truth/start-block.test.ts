import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../src/core/index.ts';
import { assignEpisode, type Db, insertEpisodeOnce, openStore } from '../../src/store/index.ts';
import { sessionStart, startBudget, type Visible } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, lesson, storeLesson } from './fixtures.ts';

const item = (id: number, at: string, strength: number, seen = 1): Visible => ({
  type: 'lesson',
  lesson: { ...lesson({ id, at, strength, text: `The person said: "rule ${id}"` }), seen },
});

/** A correction the person said in `session`, joined to `lessonId`. */
function saidIn(db: Db, said: string, lessonId: number, session: string): void {
  insertEpisodeOnce(
    db,
    {
      key: `${session}:${said}`,
      kind: 'correction',
      agent: 'claude-code',
      session,
      project: '/p',
      happenedAt: day(1),
      title: said,
      text: said,
      said,
      detail: {},
      source: {},
    },
    'transcript',
    day(1),
  );
  const { id } = db.prepare('SELECT id FROM episodes WHERE key = ?').get(`${session}:${said}`) as {
    id: number;
  };
  assignEpisode(db, id, lessonId);
}

const ids = (items: Visible[]) => items.map((entry) => (entry.type === 'lesson' ? entry.lesson.id : 0));

describe('what session start loads', () => {
  // In the projection's order (strength): the newest are the strongest, as decay makes them.
  const visible = [
    item(6, day(6), 0.9),
    item(5, day(5), 0.8),
    item(4, day(4), 0.7),
    item(3, day(3), 0.6),
    item(2, day(2), 0.5),
    item(1, day(1), 0.4),
  ];

  const budget = (sessionStartLessons: number, standingRules = 2, recentLessons = 1) => ({
    sessionStartLessons,
    standingRules,
    recentLessons,
  });

  it('takes the earliest said, then the most recent', () => {
    expect(ids(sessionStart(visible, budget(4)))).toEqual([1, 2, 3, 6]);
    expect(ids(sessionStart(visible, budget(4, 2, 2)))).toEqual([1, 2, 6, 5]);
  });

  it('puts the standing rules first, the most often said first, and no more of them than allowed', () => {
    const confirmed = item(9, day(9), 1.5);
    const withRules = [...visible, item(7, day(7), 0.3, 2), item(8, day(8), 0.2, 3), confirmed];
    expect(ids(sessionStart(withRules, budget(4)))).toEqual([8, 7, 1, 9]);
    expect(ids(sessionStart(withRules, budget(4, 3, 0)))).toEqual([8, 7, 9, 1]);
    expect(ids(sessionStart(withRules, budget(4, 0, 0)))).toEqual([1, 2, 3, 4]);
  });

  it('keeps every share inside a small budget', () => {
    expect(ids(sessionStart(visible, budget(1, 2, 5)))).toEqual([6]);
    expect(ids(sessionStart(visible, budget(2, 2, 1)))).toEqual([1, 6]);
    const withRules = [...visible, item(7, day(7), 0.3, 2), item(8, day(8), 0.2, 3)];
    expect(ids(sessionStart(withRules, budget(1, 2, 1)))).toEqual([8]);
  });

  it('loads everything when the budget holds it, each once, and nothing at a budget of zero', () => {
    expect(ids(sessionStart(visible, budget(30, 2, 3))).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sessionStart(visible, budget(0))).toEqual([]);
  });
});

describe("session start sized by the project's latest sessions", () => {
  const tempDir = useTempDirs();
  // The figures below follow from these: two lessons a correction, the latest session of two prompts or more.
  const params = {
    ...defaultParams.render,
    perRecentCorrection: 2,
    recentSessions: 1,
    recentSessionPrompts: 2,
  };

  /** A session of `project` on `at` of `prompts` prompts that left `corrections` corrections. */
  function session(
    db: Db,
    project: string,
    name: string,
    at: string,
    corrections: number,
    prompts = 5,
  ): void {
    const episode = (key: string, kind: 'session' | 'correction') =>
      insertEpisodeOnce(
        db,
        {
          key: `${name}/${key}`,
          kind,
          agent: 'claude-code',
          session: name,
          project,
          happenedAt: at,
          title: key,
          text: key,
          detail: kind === 'session' ? { prompts } : {},
          source: {},
        },
        'transcript',
        at,
      );
    episode('session', 'session');
    for (let i = 0; i < corrections; i++) episode(`correction-${i}`, 'correction');
  }

  it('loads two lessons for each correction of the latest session, the standing rules always, the full budget before any session', () => {
    const store = openStore(tempDir());
    try {
      const size = (project: string | null) => startBudget(store.db, project, params).sessionStartLessons;
      expect(size('/p')).toBe(12);
      session(store.db, '/p', 's1', day(1), 3);
      session(store.db, '/q', 'q1', day(2), 7);
      expect(size('/p')).toBe(6);
      expect(size(null)).toBe(12);
      // A session of one prompt says little of how the person corrects: the one before it decides.
      session(store.db, '/p', 's2', day(3), 0, 1);
      expect(size('/p')).toBe(6);
      session(store.db, '/p', 's3', day(4), 0);
      expect(size('/p')).toBe(0);
      expect(startBudget(store.db, '/p', { ...params, recentSessions: 2 }).sessionStartLessons).toBe(3);
      expect(startBudget(store.db, '/p', { ...params, recentSessionPrompts: 0 }).sessionStartLessons).toBe(0);
      expect(startBudget(store.db, '/p', { ...params, perRecentCorrection: 0 }).sessionStartLessons).toBe(12);

      // After a quiet session only the standing rules load.
      const quiet = startBudget(store.db, '/p', params);
      const withRules = [item(1, day(1), 0.4), item(7, day(7), 0.3, 2), item(8, day(8), 0.2, 3)];
      expect(ids(sessionStart(withRules, quiet))).toEqual([8, 7]);
      expect(ids(sessionStart([item(1, day(1), 0.4)], quiet))).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('keeps the recent places for what the latest session taught, and leaves them empty when it taught nothing new', () => {
    const store = openStore(tempDir());
    try {
      session(store.db, '/p', 's1', day(2), 1);
      session(store.db, '/p', 's2', day(5), 2);
      const latest = startBudget(store.db, '/p', params);
      expect(latest.recentSince).toBe(day(5));
      expect(latest.sessionStartLessons).toBe(4);
      const lessons = [1, 2, 3, 4, 5, 6].map((id) => item(id, day(id), 0.5));
      // Lesson 6 was first said after the latest session began; 5, the day it began; 1 to 3 are the earliest.
      expect(ids(sessionStart(lessons, { ...latest, recentLessons: 2 }))).toEqual([1, 2, 6, 5]);
      // Nothing said since: the earliest keep their places and the recent ones stay empty, however recent lesson 4 is.
      expect(ids(sessionStart(lessons.slice(0, 4), { ...latest, recentLessons: 2 }))).toEqual([1, 2]);
      // Without a latest session to read, the most recently said are the recent, however old.
      const { recentSince: _, ...unread } = latest;
      expect(ids(sessionStart(lessons.slice(0, 4), { ...unread, recentLessons: 2 }))).toEqual([1, 2, 4, 3]);
    } finally {
      store.close();
    }
  });

  it("reads which lessons the person worded as a rule of the house from the person's words they quote", () => {
    const said = (id: number, words: string): Visible => ({
      type: 'lesson',
      lesson: lesson({ id, at: day(id), strength: 0.5, text: `The person told the agent: "${words}"` }),
    });
    const quiet = { ...params, sessionStartLessons: 0, standingAlways: true };
    // Whichever rule found the correction: this one opens with "no".
    const uv = said(1, 'no, use uv instead of python: the venv is managed by uv');
    const broken = said(2, 'it still fails with the same error');
    const docstrings = said(3, "wrong again. Please don't write docstrings in specs");
    expect(ids(sessionStart([uv, broken, docstrings], quiet))).toEqual([1, 3]);
    // The agent's sentence a lesson quotes is not the person's rule.
    const quoted: Visible = {
      type: 'lesson',
      lesson: lesson({
        id: 4,
        at: day(4),
        strength: 0.5,
        text: 'When the agent said "Always use uv, not pip.", the person answered: "it still fails"',
      }),
    };
    expect(ids(sessionStart([quoted], quiet))).toEqual([]);
  });

  it('takes a lesson said twice for a standing rule only when the two were said in different sessions', () => {
    const store = openStore(tempDir());
    try {
      const sameSession = storeLesson(store.db, {
        text: 'The person corrected the agent 2 times about the same thing',
      });
      const twoSessions = storeLesson(store.db, {
        text: 'The person corrected the agent 2 times about the same thing',
      });
      saidIn(store.db, 'the button still flickers when I toggle the season', sameSession, 's1');
      saidIn(store.db, 'still the same behaviour, the season button flickers', sameSession, 's1');
      saidIn(store.db, 'the tests belong in spec/, next to the code', twoSessions, 's1');
      saidIn(store.db, 'again, the tests go in spec/', twoSessions, 's2');
      const budget = startBudget(store.db, '/p', { ...params, perRecentCorrection: 0 });
      expect([...(budget.oneSession ?? [])]).toEqual([sameSession]);
      const visible = [item(sameSession, day(1), 0.5, 2), item(twoSessions, day(1), 0.5, 2)];
      expect(ids(sessionStart(visible, { ...budget, sessionStartLessons: 0, standingAlways: true }))).toEqual(
        [twoSessions],
      );
      // Without the store's reading, a lesson said twice stands as before.
      expect(ids(sessionStart(visible, { ...params, sessionStartLessons: 0, standingAlways: true }))).toEqual(
        [sameSession, twoSessions],
      );
    } finally {
      store.close();
    }
  });
});
