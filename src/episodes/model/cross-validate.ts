/**
 * Out-of-fold scores for a learned detector: the repositories dealt into folds by a seeded shuffle (every
 * row of a repository in one fold), a model fitted on the other folds scoring each fold. Also fitting on one
 * set of rows and scoring another (the first batch against the second).
 */

import { seeded } from '../../core/index.ts';
import { type Context, collectRuled, visitFeatures } from './features.ts';
import { type Example, type FitOptions, fitModel, probability, shuffled } from './fit.ts';
import type { LabelledMessage, LabelledRow } from './labelled.ts';

export interface Scored<T extends LabelledRow = LabelledMessage> {
  row: T;
  score: number;
  positive: boolean;
}

/**
 * How much a soft correction (labelled a correction, but one a reader could take for a request) counts in fitting;
 * it counts whole in every figure. Fitted at full weight, soft rows taught the model that requests correct.
 * Nested out-of-fold, at the same precision target (0.83): weight 1, P 0.81 R 0.39; 0.25, P 0.83 R 0.41; 0 (left
 * out), P 0.80–0.81 R 0.43, but fitted without the histories it then read answers to the agent's offers as corrections
 * and the replay showed more items for the same catches (9.88 per 100 items); at 0.25 the replay caught 34 of 61
 * repeats at 10.69 per 100 (33 at 10.22 at weight 1).
 */
export const SOFT_WEIGHT = 0.25;

export function examplesOf(
  rows: readonly LabelledMessage[],
  contextOf: (row: LabelledMessage) => Context,
  dims: number,
  /** The rows whose rule features fitting may leave out of a step (`FitOptions.dropout`): every row unless given. */
  droppable: (row: LabelledMessage) => boolean = () => true,
): Example[] {
  return rows.map((row) => {
    const context = contextOf(row);
    const { features, droppable: rules } = collectRuled(dims, (visit, named) =>
      visitFeatures(row.said, row.before, context, dims, visit, named),
    );
    return {
      features,
      positive: row.positive,
      ...(row.soft && { weight: SOFT_WEIGHT }),
      ...(droppable(row) && { droppable: rules }),
    };
  });
}

/** Repositories dealt into `folds` folds, largest first onto the lightest fold after a seeded shuffle. */
export function foldsOf(rows: readonly LabelledRow[], folds: number, seed: number): Map<string, number> {
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

export function crossValidate<T extends LabelledRow>(
  rows: readonly T[],
  examples: readonly Example[],
  options: FitOptions & { folds: number },
): Scored<T>[] {
  const fold = foldsOf(rows, options.folds, options.seed);
  const scored: Scored<T>[] = new Array(rows.length);
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
export function trainTest<T extends LabelledRow>(
  rows: readonly T[],
  examples: readonly Example[],
  train: (row: T) => boolean,
  test: (row: T) => boolean,
  options: FitOptions,
): Scored<T>[] {
  const model = fitModel(
    examples.filter((_, i) => train(rows[i]!)),
    options,
  );
  return rows.flatMap((row, i) =>
    test(row) ? [{ row, score: probability(model, examples[i]!.features), positive: row.positive }] : [],
  );
}

/** The fitting settings chosen between: how many passes over the rows. */
export const FIT_GRID: readonly { rate: number; epochs: number }[] = [
  { rate: 0.3, epochs: 5 },
  { rate: 0.3, epochs: 10 },
];

/**
 * How much precision the model may cost beside the rules' alone, on rows neither was written from, when the
 * settings and threshold are chosen. One point: the choice is made on out-of-fold figures that are a little
 * kinder than the rows after them, so a wider margin is spent twice.
 */
export const PRECISION_TOLERANCE = 0.01;

/** The thresholds chosen between. */
export const THRESHOLD_STEPS: readonly number[] = Array.from({ length: 38 }, (_, i) => (i + 2) / 40);

/**
 * What the hand-written side decided of each row: a rule fired, or the model may judge it at all; and, for a
 * detector whose false alarms differ in cost, the negative rows a detection costs most on (`spared`).
 */
export interface RuleSide {
  ruled: readonly boolean[];
  mayJudge: readonly boolean[];
  spared?: readonly boolean[];
}

/**
 * What the fitting settings and the threshold are chosen for, out-of-fold. `rules`: the most recall at which the
 * rules or the model together stay within `tolerance` of the rules' precision alone (the rules decide, the model
 * adds). `precision`: the most recall at which the model is at least this precise (the rules are only features).
 * `accuracy`: the most rows decided right.
 */
export type Goal =
  | { kind: 'rules'; tolerance: number }
  | {
      kind: 'precision';
      precision: number;
      /** At most this share of the spared rows (`RuleSide.spared`) detected. */
      spared?: number;
    }
  | { kind: 'accuracy' };

export interface Tally {
  precision: number;
  recall: number;
  accuracy: number;
}

export interface Choice {
  rate: number;
  epochs: number;
  threshold: number;
  /** Out-of-fold on the judged rows: the rules alone, and as decided with the model over the threshold. */
  rules: Tally;
  withModel: Tally;
  /** The share of the spared rows detected, with the model (0 when none are spared). */
  spared: number;
}

export function tally(positive: readonly boolean[], hit: readonly boolean[]): Tally {
  let tp = 0;
  let fp = 0;
  let right = 0;
  let positives = 0;
  positive.forEach((yes, i) => {
    if (yes) positives++;
    if (yes === hit[i]) right++;
    if (!hit[i]) return;
    if (yes) tp++;
    else fp++;
  });
  return {
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: positives === 0 ? 0 : tp / positives,
    accuracy: positive.length === 0 ? 0 : right / positive.length,
  };
}

/** The share of the spared rows among `judged` that `hit` detects (0 when none are spared). */
export function sparedShare(spared: readonly boolean[] | undefined, hit: readonly boolean[]): number {
  if (!spared) return 0;
  const kept = hit.filter((_, i) => spared[i]);
  return kept.length === 0 ? 0 : kept.filter(Boolean).length / kept.length;
}

/** Whether `candidate` may be chosen at all: the goal's precision reached and its spared rows spared. */
function admissible(goal: Goal, rules: Tally, candidate: Tally, spared: number): boolean {
  if (goal.kind === 'accuracy') return true;
  if (goal.kind === 'precision' && spared > (goal.spared ?? 1)) return false;
  const floor = goal.kind === 'rules' ? rules.precision - goal.tolerance : goal.precision;
  return candidate.precision >= floor;
}

/** How `candidate` compares with `best` for `goal`: above 0 when it serves the goal better, 0 when as well. */
function compare(goal: Goal, candidate: Tally, best: Tally): number {
  if (goal.kind === 'accuracy')
    return candidate.accuracy - best.accuracy || candidate.precision - best.precision;
  return candidate.recall - best.recall || candidate.precision - best.precision;
}

/**
 * The best admissible step for `goal`, and when the steps beside it decide every row alike (a plateau of
 * thresholds with the same figures), the one in the middle of them: its edge is where the folds' rows happen to
 * stop, and a threshold there is the first to fail on rows that fall a little further.
 */
function plateauMiddle(steps: readonly { choice: Choice; fits: boolean }[], goal: Goal): Choice | null {
  let first = -1;
  steps.forEach(({ choice, fits }, i) => {
    if (fits && (first < 0 || compare(goal, choice.withModel, steps[first]!.choice.withModel) > 0)) first = i;
  });
  if (first < 0) return null;
  let last = first;
  while (
    last + 1 < steps.length &&
    steps[last + 1]!.fits &&
    compare(goal, steps[last + 1]!.choice.withModel, steps[first]!.choice.withModel) === 0
  )
    last++;
  return steps[first + Math.floor((last - first) / 2)]!.choice;
}

export type ChooseOptions = Omit<FitOptions, 'rate' | 'epochs'> & {
  folds: number;
  goal: Goal;
  /** Judge the choice on every row, not only on the rows the rules were not written from (the default). */
  judgeAll?: boolean;
  /** The fitting settings chosen between (`FIT_GRID` unless given). */
  grid?: readonly { rate: number; epochs: number }[];
  /** The rules decide beside the model (a rule that fires is final); when false, they only feed it. Default true. */
  rulesDecide?: boolean;
};

/**
 * How many dealings of the rows into folds the choice of settings and threshold pools. With one, where one
 * dealing's fold boundaries happened to fall moved the choice: the correction detector's passes flipped between 5
 * and 10 from one refit to the next, and its nested precision over eight fold seeds ran from 0.78 to 0.83; pooled
 * over three, from 0.82 to 0.83, and fitted on the first batch alone its threshold came down from 0.875 to 0.8.
 */
export const CHOICE_DEALINGS = 3;
/** How far apart the seeds of those dealings are. */
const DEALING_SEED_STEP = 101;

/**
 * The fitting settings and the threshold, chosen by grouped cross-validation over `rows` alone: for each setting
 * of `FIT_GRID`, out-of-fold scores over `CHOICE_DEALINGS` dealings into folds; then the setting and threshold that
 * serve `goal` best (for the same recall, the more precise; of a run of thresholds with the same figures, the
 * middle one), measured on the rows the rules were not written from (every row when there are none, or with
 * `judgeAll`). Given only the training rows of an outer fold, nothing of the rows it is judged on enters the
 * choice. When no threshold reaches the goal's precision, the most precise one.
 */
export function chooseFit<T extends LabelledRow>(
  rows: readonly T[],
  examples: readonly Example[],
  side: RuleSide,
  options: ChooseOptions,
): Choice {
  let judged = options.judgeAll ? [] : rows.flatMap((row, i) => (row.set === 'batch1' ? [] : [i]));
  if (judged.length === 0) judged = rows.map((_, i) => i);
  const positive = judged.map((i) => rows[i]!.positive);
  const ruled = judged.map((i) => side.ruled[i]!);
  const spared = side.spared && judged.map((i) => side.spared![i]!);
  const rules = tally(positive, ruled);
  const decide = options.rulesDecide ?? true;
  // Each dealing judges every row once: the figures are those of the rows judged as often as there are dealings.
  const again = <V>(values: readonly V[]) => Array.from({ length: CHOICE_DEALINGS }, () => values).flat();
  const positiveDealt = again(positive);
  const sparedDealt = spared && again(spared);
  let best: Choice | null = null;
  let fallback: Choice | null = null;
  for (const setting of options.grid ?? FIT_GRID) {
    const dealt = Array.from({ length: CHOICE_DEALINGS }, (_, d) =>
      crossValidate(rows, examples, { ...options, ...setting, seed: options.seed + d * DEALING_SEED_STEP }),
    );
    const steps = THRESHOLD_STEPS.map((threshold) => {
      const hit = dealt.flatMap((scored) =>
        judged.map((i, k) => (decide && ruled[k]!) || (side.mayJudge[i]! && scored[i]!.score >= threshold)),
      );
      const withModel = tally(positiveDealt, hit);
      const share = sparedShare(sparedDealt, hit);
      return {
        choice: { ...setting, threshold, rules, withModel, spared: share },
        fits: admissible(options.goal, rules, withModel, share),
      };
    });
    for (const { choice } of steps)
      if (!fallback || choice.withModel.precision > fallback.withModel.precision) fallback = choice;
    const top = plateauMiddle(steps, options.goal);
    if (top && (!best || compare(options.goal, top.withModel, best.withModel) > 0)) best = top;
  }
  if (options.goal.kind === 'rules' && !best)
    throw new Error('no setting keeps the rules’ precision out-of-fold');
  return best ?? fallback!;
}

/**
 * Fitted on the rows `train` keeps and judged on those `test` keeps, with the settings and the threshold chosen by
 * `chooseFit` on the training rows alone: nothing of the test rows enters the choice, as in one fold of
 * `nestedCrossValidate`.
 */
export function chosenTrainTest<T extends LabelledRow>(
  rows: readonly T[],
  examples: readonly Example[],
  side: RuleSide,
  options: ChooseOptions,
  train: (row: T) => boolean,
  test: (row: T) => boolean,
): { scored: (Scored<T> & { detected: boolean })[]; choice: Choice } {
  const inside = rows.flatMap((row, i) => (train(row) ? [i] : []));
  const choice = chooseFit(
    inside.map((i) => rows[i]!),
    inside.map((i) => examples[i]!),
    {
      ruled: inside.map((i) => side.ruled[i]!),
      mayJudge: inside.map((i) => side.mayJudge[i]!),
      ...(side.spared && { spared: inside.map((i) => side.spared![i]!) }),
    },
    options,
  );
  const model = fitModel(
    inside.map((i) => examples[i]!),
    { ...options, rate: choice.rate, epochs: choice.epochs },
  );
  const scored = rows.flatMap((row, i) => {
    if (!test(row)) return [];
    const score = side.mayJudge[i] ? probability(model, examples[i]!.features) : 0;
    const detected = ((options.rulesDecide ?? true) && side.ruled[i]!) || score >= choice.threshold;
    return [{ row, score, positive: row.positive, detected }];
  });
  return { scored, choice };
}

/**
 * Nested cross-validation: for each outer fold, the settings and threshold chosen by `chooseFit` on the other
 * folds alone, a model fitted there with them, and the fold decided with it. The figures it gives judge the
 * whole procedure, the choices included.
 */
export function nestedCrossValidate<T extends LabelledRow>(
  rows: readonly T[],
  examples: readonly Example[],
  side: RuleSide,
  options: ChooseOptions,
): { scored: (Scored<T> & { detected: boolean })[]; choices: Choice[] } {
  const fold = foldsOf(rows, options.folds, options.seed);
  const scored: (Scored<T> & { detected: boolean })[] = new Array(rows.length);
  const at = new Map(rows.map((row, i) => [row, i]));
  const choices: Choice[] = [];
  for (let f = 0; f < options.folds; f++) {
    const outer = chosenTrainTest(
      rows,
      examples,
      side,
      options,
      (row) => fold.get(row.repo) !== f,
      (row) => fold.get(row.repo) === f,
    );
    choices.push(outer.choice);
    for (const one of outer.scored) scored[at.get(one.row)!] = one;
  }
  return { scored, choices };
}
