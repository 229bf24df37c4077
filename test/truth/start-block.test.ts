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

  it('takes the strongest, then fills the budget with the earliest said of the rest', () => {
    expect(ids(sessionStart(visible, { sessionStartLessons: 4, longStanding: 2 }))).toEqual([6, 5, 1, 2]);
  });

  it('puts the standing rules first, the most often said first', () => {
    const withRules = [...visible, item(7, day(7), 0.3, 2), item(8, day(8), 0.2, 3)];
    expect(ids(sessionStart(withRules, { sessionStartLessons: 4, longStanding: 2 }))).toEqual([8, 7, 1, 2]);
  });

  it('gives the longest-standing at most half of a small budget', () => {
    expect(ids(sessionStart(visible, { sessionStartLessons: 1, longStanding: 15 }))).toEqual([6]);
    expect(ids(sessionStart(visible, { sessionStartLessons: 3, longStanding: 15 }))).toEqual([6, 5, 1]);
  });

  it('loads everything when the budget holds it, and nothing at a budget of zero', () => {
    expect(ids(sessionStart(visible, { sessionStartLessons: 30, longStanding: 15 })).sort()).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(sessionStart(visible, { sessionStartLessons: 0, longStanding: 15 })).toEqual([]);
  });
});
