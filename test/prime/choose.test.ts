import { describe, expect, it } from 'vitest';
import { choosePrimes, chooseReminder, remindedEarlier } from '../../src/prime/index.ts';

const met = (hash: string, similarity: number) => ({ hashes: [hash], similarity });

describe('the hooks’ choice, shared by the prime hook and the measured replay', () => {
  it('primes those over the cut, most similar first, then those met by subject, within the limit', () => {
    const { chosen, reasons } = choosePrimes(
      [met('low', 0.1), met('b', 0.5), met('a', 0.9), met('shown', 0.95)],
      [met('subject', 0)],
      { cut: 0.3, limit: 2, shownBefore: new Set(['shown']) },
    );
    expect(chosen.map((c) => c.hashes[0])).toEqual(['a', 'b']);
    expect(reasons).toEqual({ shown_earlier_in_session: 1, over_limit_per_moment: 1 });
  });

  it('keeps ties in their order and counts a question shown when either of its lessons was', () => {
    const question = { hashes: ['q1', 'q2'], similarity: 0.5 };
    const { chosen } = choosePrimes([met('first', 0.5), question, met('second', 0.5)], [], {
      cut: 0.5,
      limit: 5,
      shownBefore: new Set(['q2']),
    });
    expect(chosen.map((c) => c.hashes[0])).toEqual(['first', 'second']);
  });

  it('reminds with the lesson of most sources among those most of whose sources followed a hand-back', () => {
    const lessons = [
      { name: 'half', sources: 4, afterOffer: 2 },
      { name: 'most', sources: 3, afterOffer: 2 },
      { name: 'equal', sources: 3, afterOffer: 3 },
      { name: 'none', sources: 0, afterOffer: 0 },
    ];
    expect(chooseReminder(lessons)?.name).toBe('most');
    expect(chooseReminder(lessons.slice(0, 1))).toBeNull();
  });

  it('does not remind twice in a session of a lesson, or of a theme sharing one of its hashes', () => {
    expect(remindedEarlier(['a', 'b'], new Set(['b']))).toBe(true);
    expect(remindedEarlier(['a'], new Set(['b']))).toBe(false);
  });
});
