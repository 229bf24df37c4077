import { describe, expect, it } from 'vitest';
import { chooseFit, THRESHOLD_STEPS } from '../../src/episodes/model/cross-validate.ts';
import type { Example } from '../../src/episodes/model/fit.ts';
import type { LabelledRow } from '../../src/episodes/model/labelled.ts';

/** Rows from ten repositories, each with one positive and one negative that a single feature tells apart. */
function separable(): { rows: LabelledRow[]; examples: Example[] } {
  const rows: LabelledRow[] = [];
  const examples: Example[] = [];
  for (let repo = 0; repo < 10; repo++)
    for (const positive of [true, false]) {
      rows.push({
        id: `${repo}-${positive}`,
        repo: `r${repo}`,
        set: 'batch2',
        positive,
        soft: false,
        lang: 'en',
      });
      examples.push({ features: [{ index: positive ? 1 : 2, value: 1 }], positive });
    }
  return { rows, examples };
}

const options = { dims: 8, l2: 1e-5, seed: 7, damping: 1, folds: 5, judgeAll: true, rulesDecide: false };

describe('chooseFit', () => {
  it('takes the threshold in the middle of the thresholds that decide every row alike, not at their edge', () => {
    const { rows, examples } = separable();
    const side = { ruled: rows.map(() => false), mayJudge: rows.map(() => true) };
    for (const goal of [{ kind: 'precision', precision: 0.8 } as const, { kind: 'accuracy' } as const]) {
      const choice = chooseFit(rows, examples, side, { ...options, goal });
      expect(choice.withModel).toMatchObject({ precision: 1, recall: 1, accuracy: 1 });
      // Every row is decided right from the lowest step up to some high one: the choice sits well inside.
      expect(choice.threshold).toBeGreaterThan(THRESHOLD_STEPS[0]! + 0.2);
      expect(choice.threshold).toBeLessThan(THRESHOLD_STEPS[THRESHOLD_STEPS.length - 1]! - 0.2);
    }
  });

  it('for the same recall, takes the threshold with the higher precision', () => {
    const { rows, examples } = separable();
    // A negative row that looks like a positive one at a lower score: it falls below a high enough threshold.
    rows.push({ id: 'odd', repo: 'r3', set: 'batch2', positive: false, soft: false, lang: 'en' });
    examples.push({ features: [{ index: 1, value: 0.4 }], positive: false });
    const side = { ruled: rows.map(() => false), mayJudge: rows.map(() => true) };
    const choice = chooseFit(rows, examples, side, {
      ...options,
      goal: { kind: 'precision', precision: 0.8 },
    });
    expect(choice.withModel.recall).toBe(1);
    expect(choice.withModel.precision).toBe(1);
  });
});
