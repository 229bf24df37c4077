/**
 * Out-of-fold scores for the correction detector: the repositories dealt into folds by a seeded shuffle (every
 * row of a repository in one fold), a model fitted on the other folds scoring each fold. Also fitting on one
 * set of rows and scoring another (the first batch against the second).
 */

import { seeded } from '../../core/index.ts';
import { type Context, featuresOf } from './features.ts';
import { type Example, type FitOptions, fitModel, probability, shuffled } from './fit.ts';
import type { LabelledMessage } from './labelled.ts';

export interface Scored {
  row: LabelledMessage;
  score: number;
  positive: boolean;
}

export function examplesOf(
  rows: readonly LabelledMessage[],
  contextOf: (said: string, before: string) => Context,
  dims: number,
): Example[] {
  return rows.map((row) => ({
    features: featuresOf(row.said, row.before, contextOf(row.said, row.before), dims),
    positive: row.positive,
  }));
}

/** Repositories dealt into `folds` folds, largest first onto the lightest fold after a seeded shuffle. */
export function foldsOf(rows: readonly LabelledMessage[], folds: number, seed: number): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const row of rows) sizes.set(row.repo, (sizes.get(row.repo) ?? 0) + 1);
  const repos = shuffled([...sizes.keys()].sort(), seeded(seed)).sort(
    (a, b) => sizes.get(b)! - sizes.get(a)!,
  );
  const load = new Array<number>(folds).fill(0);
  const fold = new Map<string, number>();
  for (const repo of repos) {
    const lightest = load.indexOf(Math.min(...load));
    fold.set(repo, lightest);
    load[lightest]! += sizes.get(repo)!;
  }
  return fold;
}

export function crossValidate(
  rows: readonly LabelledMessage[],
  examples: readonly Example[],
  options: FitOptions & { folds: number },
): Scored[] {
  const fold = foldsOf(rows, options.folds, options.seed);
  const scored: Scored[] = new Array(rows.length);
  for (let f = 0; f < options.folds; f++) {
    const train = examples.filter((_, i) => fold.get(rows[i]!.repo) !== f);
    const model = fitModel(train, options);
    rows.forEach((row, i) => {
      if (fold.get(row.repo) !== f) return;
      scored[i] = { row, score: probability(model, examples[i]!.features), positive: row.positive };
    });
  }
  return scored;
}

/** Fitted on the rows `train` keeps, scored on the rows `test` keeps. */
export function trainTest(
  rows: readonly LabelledMessage[],
  examples: readonly Example[],
  train: (row: LabelledMessage) => boolean,
  test: (row: LabelledMessage) => boolean,
  options: FitOptions,
): Scored[] {
  const model = fitModel(
    examples.filter((_, i) => train(rows[i]!)),
    options,
  );
  return rows.flatMap((row, i) =>
    test(row) ? [{ row, score: probability(model, examples[i]!.features), positive: row.positive }] : [],
  );
}
