import { describe, expect, it } from 'vitest';
import { sessionStart, type Visible } from '../../src/truth/index.ts';
import { day, lesson } from './fixtures.ts';

const item = (id: number, at: string, strength: number, seen = 1): Visible => ({
  type: 'lesson',
  lesson: { ...lesson({ id, at, strength, text: `The person said: "rule ${id}"` }), seen },
});

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
