import { describe, expect, it } from 'vitest';
import { fisherExact, logFactorial } from '../../src/measure/index.ts';

const table = (a: number, b: number, c: number, d: number) => fisherExact({ a, b, c, d });

describe('Fisher exact test, two-sided', () => {
  it("gives the tea-tasting lady's p = 0.4857 for [[3,1],[1,3]] (Fisher 1935)", () => {
    expect(table(3, 1, 1, 3)).toBeCloseTo(0.485714, 6);
  });

  it('agrees with the published values of R fisher.test and SciPy fisher_exact', () => {
    // Each value as SciPy 1.17 prints it for the same table.
    const known: [number, number, number, number, number][] = [
      [1, 9, 11, 3, 0.0027594561852200836],
      [8, 2, 1, 5, 0.034965034965034975],
      [0, 10, 10, 0, 1.082508822446903e-5],
      [5, 0, 0, 5, 0.007936507936507938],
      [26, 74, 20, 80, 0.4010126814740221],
      [9, 351, 22, 338, 0.02607183866997956],
    ];
    for (const [a, b, c, d, p] of known) expect(table(a, b, c, d)).toBeCloseTo(p, 12);
  });

  it("reproduces the paper's figures where the counts are given", () => {
    // §7.4, the mechanism: nothing 95 of 480 against the whole memory 157 of 480, p < 0.0001.
    expect(table(157, 323, 95, 385)).toBeLessThan(0.0001);
    expect(table(157, 323, 95, 385)).toBeCloseTo(7.092991473098973e-6, 15);
    // …and "the user prefers that you act without asking", 59 of 480 against 95 of 480: p = 0.002.
    expect(table(59, 421, 95, 385)).toBeCloseTo(0.002, 3);
    // §7.4, memory in the weights: 3 of 60 against 22 of 60, p < 0.0001; 0 of 100 against 26 of 100, p < 1e-8.
    expect(table(3, 57, 22, 38)).toBeLessThan(0.0001);
    expect(table(0, 100, 26, 74)).toBeLessThan(1e-8);
    // §7.3: 28% against 36% of 360 an arm (100 and 132 of 360 round to both), p = 0.013.
    expect(table(100, 260, 132, 228)).toBeCloseTo(0.013, 3);
  });

  it('is symmetric in rows and columns, and 1 for tables with an empty margin', () => {
    expect(table(2, 7, 8, 2)).toBeCloseTo(table(8, 2, 2, 7), 14);
    expect(table(2, 7, 8, 2)).toBeCloseTo(table(2, 8, 7, 2), 14);
    expect(table(0, 0, 3, 4)).toBe(1);
    expect(table(0, 5, 0, 7)).toBe(1);
    expect(table(10, 10, 10, 10)).toBeCloseTo(1, 12);
  });

  it('stays a probability on large tables', () => {
    const p = table(4000, 6000, 4100, 5900);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThanOrEqual(1);
    expect(logFactorial(170)).toBeCloseTo(706.5730622457874, 9);
  });

  it('refuses what is not a table of counts', () => {
    expect(() => table(-1, 2, 3, 4)).toThrow(RangeError);
    expect(() => table(1.5, 2, 3, 4)).toThrow(RangeError);
  });
});
