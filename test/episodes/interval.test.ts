import { describe, expect, it } from 'vitest';
import { type Decided, groupedInterval } from '../../src/episodes/model/interval.ts';

/** `repos` repositories of four rows each: two corrections, and what the detector made of the four. */
function decided(repos: number, of: (repo: number) => [boolean, boolean, boolean]): Decided[] {
  const rows: Decided[] = [];
  for (let repo = 0; repo < repos; repo++) {
    const [first, second, falseAlarm] = of(repo);
    const group = `owner${repo}/project`;
    rows.push(
      { group, positive: true, detected: first },
      { group, positive: true, detected: second },
      { group, positive: false, detected: falseAlarm },
      { group, positive: false, detected: false },
    );
  }
  return rows;
}

describe('groupedInterval', () => {
  it('has no width when every repository gives the same figures', () => {
    const { precision, recall } = groupedInterval(decided(12, () => [true, false, false]));
    expect(precision).toEqual({ low: 1, high: 1 });
    expect(recall).toEqual({ low: 0.5, high: 0.5 });
  });

  it('holds the pooled figure, and narrows as repositories of the same mix are added', () => {
    // Half the repositories find both corrections and raise a false alarm; the other half find none.
    const mix = (repo: number): [boolean, boolean, boolean] =>
      repo % 2 === 0 ? [true, true, true] : [false, false, false];
    const few = groupedInterval(decided(10, mix));
    const many = groupedInterval(decided(160, mix));
    for (const { recall, precision } of [few, many]) {
      expect(recall.low).toBeLessThan(0.5);
      expect(recall.high).toBeGreaterThan(0.5);
      // Every repository that detects anything is right two times in three.
      expect(precision).toEqual({ low: 2 / 3, high: 2 / 3 });
    }
    expect(many.recall.high - many.recall.low).toBeLessThan((few.recall.high - few.recall.low) / 2);
  });

  it('draws repositories, not rows: one repository holding every hit makes a wide interval', () => {
    // Ten repositories of ten corrections each; one finds all of its ten, the others none.
    const rows: Decided[] = [];
    for (let repo = 0; repo < 10; repo++)
      for (let k = 0; k < 10; k++) rows.push({ group: `r${repo}`, positive: true, detected: repo === 0 });
    const { recall } = groupedInterval(rows);
    expect(recall.low).toBe(0);
    // Drawn row by row, 10 hits in 100 corrections would stay under 0.17 in 97.5 % of the draws; drawn by
    // repository, that one repository comes three times or more in about 7 % of them.
    expect(recall.high).toBeGreaterThanOrEqual(0.3);
  });

  it('gives the same interval for the same rows in any order, and for the same seed', () => {
    const rows = decided(15, (repo) => [repo % 3 === 0, repo % 2 === 0, repo % 5 === 0]);
    const shuffled = [...rows].reverse();
    expect(groupedInterval(shuffled)).toEqual(groupedInterval(rows));
    expect(groupedInterval(rows, 1000, 8)).not.toEqual(groupedInterval(rows, 1000, 7));
  });

  it('leaves out of precision the draws that detect nothing', () => {
    const rows = decided(8, (repo) => (repo === 0 ? [true, false, false] : [false, false, false]));
    const { precision, recall } = groupedInterval(rows);
    expect(precision).toEqual({ low: 1, high: 1 });
    expect(recall.low).toBe(0);
  });
});
