/**
 * The correction detector judged on rows it was not fitted to: 5-fold cross-validation grouped by repository
 * (every row of a repository in one fold, a fixed seed), on both batches of `../shared/data` and the labelled
 * histories, apart and together, by language and with and without the rows labelled soft, each nested figure
 * with the middle 95 % of a bootstrap over the repositories; then fitted without the second batch (on the first,
 * and on the first with the histories) and scored on it. Beside each, the hand-written rules alone on the same
 * rows. The detector as it runs is the rules or the model over its threshold; the curves are of that union.
 */
import { decidingRule, ruleCorrection } from '../src/episodes/detect.ts';
import { correctionFit, correctionThreshold } from '../src/episodes/model/correction.ts';
import {
  CHOICE_DEALINGS,
  chosenTrainTest,
  crossValidate,
  type examplesOf,
  nestedCrossValidate,
  type RuleSide,
  type Scored,
  trainTest,
} from '../src/episodes/model/cross-validate.ts';
import { curve, fitModel } from '../src/episodes/model/fit.ts';
import { type LabelledMessage, readLabelledMessages } from '../src/episodes/model/labelled.ts';
import { chooseOptions, correction } from '../src/episodes/training.ts';
import { heaviest, overSeeds, spread } from './learned-oof.ts';

const DIMS = 1 << 14;
const THRESHOLDS = [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9];

function pr(point: { precision: number; recall: number; tp: number; fp: number; fn: number }): string {
  return `P ${point.precision.toFixed(2)} R ${point.recall.toFixed(2)} (${point.tp}/${point.tp + point.fn}, ${point.fp} false)`;
}

function lineOf(name: string, scored: readonly Scored[], threshold: number): string {
  // Every rule that fires, for the rules alone; the final ones beside the model, as the detector runs.
  const fired = scored.map(({ row }) => ruleCorrection(row.said, row.before) !== null);
  const ruled = scored.map(({ row }) => decidingRule(row.said, row.before) !== null);
  const rules = curve(
    scored.map(({ positive }, i) => ({ score: fired[i] ? 1 : 0, positive })),
    [1],
  )[0]!;
  const union = (t: number) =>
    curve(
      scored.map(({ score, positive }, i) => ({ score: ruled[i] || score >= t ? 1 : 0, positive })),
      [1],
    )[0]!;
  const model = curve(scored, THRESHOLDS);
  return [
    `${name} — ${scored.length} rows, ${scored.filter((s) => s.positive).length} corrections`,
    `  rules alone: ${pr(rules)}`,
    `  rules or model ≥ ${threshold} (as shipped): ${pr(union(threshold))}`,
    `  rules or model, by threshold: ${THRESHOLDS.map((t) => {
      const p = union(t);
      return `${t}: ${p.precision.toFixed(2)}/${p.recall.toFixed(2)}`;
    }).join('  ')}`,
    `  model alone, by threshold:    ${model.map((p) => `${p.threshold}: ${p.precision.toFixed(2)}/${p.recall.toFixed(2)}`).join('  ')}`,
  ].join('\n');
}

/** How the shipped weights were fitted: their settings, and the rule features left out of steps as in training. */
function correctionOptions() {
  return {
    ...correctionFit(),
    dims: DIMS,
    ...(correction.ruleDropout !== undefined && { dropout: correction.ruleDropout }),
  };
}

/** The scores of rows the model is not asked about (what the rules know is not a correction) set to zero. */
function asRun(scored: Scored[], side: RuleSide, rows: readonly LabelledMessage[]): Scored[] {
  const at = new Map(rows.map((row, i) => [row, i]));
  return scored.map((s) => (side.mayJudge[at.get(s.row)!] ? s : { ...s, score: 0 }));
}

/** Precision and recall of the nested decisions, by set, language and softness. */
function nestedLines(
  rows: readonly LabelledMessage[],
  side: RuleSide,
  examples: ReturnType<typeof examplesOf>,
) {
  const { scored, choices } = nestedCrossValidate(rows, examples, side, chooseOptions(correction, DIMS));
  const line = (name: string, keep: (row: LabelledMessage) => boolean) => {
    const kept = scored.flatMap((s) =>
      keep(s.row) ? [{ ...s, ruled: ruleCorrection(s.row.said, s.row.before) !== null }] : [],
    );
    const rules = curve(
      kept.map(({ ruled, positive }) => ({ score: ruled ? 1 : 0, positive })),
      [1],
    )[0]!;
    const detected = curve(
      kept.map(({ detected, positive }) => ({ score: detected ? 1 : 0, positive })),
      [1],
    )[0]!;
    return `  ${name}: ${pr(detected)} [${spread(kept)}]   (rules alone ${pr(rules)})`;
  };
  return [
    'Nested (the fitting settings and the threshold chosen on the four training folds alone, by an inner grouped',
    `cross-validation over ${CHOICE_DEALINGS} dealings into folds, then the fifth fold decided; the figures judge the choosing too):`,
    `  chosen per fold: ${choices.map((c) => `rate ${c.rate}, ${c.epochs} passes, ≥ ${c.threshold}`).join('; ')}`,
    line('all rows', () => true),
    line('first batch (rules in-sample)', (r) => r.set === 'batch1'),
    line('second batch', (r) => r.set === 'batch2'),
    line('histories', (r) => r.set === 'histories'),
    line('second batch and histories', (r) => r.set !== 'batch1'),
    line('English', (r) => r.lang === 'en'),
    line('other languages', (r) => r.lang !== 'en'),
    line('without soft rows', (r) => !r.soft || !r.positive),
    overSeeds(rows, examples, side, chooseOptions(correction, DIMS), [
      ['all rows', () => true],
      ['second batch', (r) => r.set === 'batch2'],
      ['histories', (r) => r.set === 'histories'],
    ]),
  ].join('\n');
}

/**
 * Fitted on the rows `train` keeps with the settings and threshold chosen there alone, scored on the second batch:
 * the second batch never enters the fitting or the choice.
 */
function secondBatchHeldOut(
  rows: readonly LabelledMessage[],
  side: RuleSide,
  examples: ReturnType<typeof examplesOf>,
  name: string,
  train: (row: LabelledMessage) => boolean,
): string {
  const { scored, choice } = chosenTrainTest(
    rows,
    examples,
    side,
    chooseOptions(correction, DIMS),
    train,
    (r) => r.set === 'batch2',
  );
  const detected = curve(
    scored.map(({ detected, positive }) => ({ score: detected ? 1 : 0, positive })),
    [1],
  )[0]!;
  return `  rules or model, the settings and threshold chosen on ${name} alone (rate ${choice.rate}, ${choice.epochs} passes, ≥ ${choice.threshold}): ${pr(detected)} [${spread(scored)}]`;
}

/**
 * Every row scored out-of-fold as the detector runs (5 folds grouped by repository, the shipped fitting settings),
 * with whether a rule called it a correction.
 */
export function correctionScoredOutOfFold(rows: readonly LabelledMessage[]) {
  const examples = correction.examples(rows, DIMS);
  const side: RuleSide = correction.rules(rows);
  const options = correctionOptions();
  const scored = asRun(crossValidate(rows, examples, { ...options, folds: 5 }), side, rows);
  return { examples, side, options, scored };
}

export function correctionOutOfFold(dir: string): string {
  const rows = readLabelledMessages(dir);
  const { examples, side, options, scored } = correctionScoredOutOfFold(rows);
  const threshold = correctionThreshold();
  const keep = (test: (row: LabelledMessage) => boolean) => scored.filter(({ row }) => test(row));
  const fittedWithout = (name: string, train: (row: LabelledMessage) => boolean) =>
    lineOf(
      `second batch, fitted on ${name}`,
      asRun(
        trainTest(rows, examples, train, (r) => r.set === 'batch2', options),
        side,
        rows,
      ),
      threshold,
    );
  const sections = [
    nestedLines(rows, side, examples),
    '',
    `Correction detector, out-of-fold (5 folds grouped by repository, seed 7; fitted at rate ${options.rate}, ${options.epochs} passes, the settings and the threshold as shipped, both chosen out-of-fold on these same folds; P/R at each point):`,
    '',
    lineOf('all rows', scored, threshold),
    lineOf(
      'first batch (the rules were written from these rows: their figures here are in-sample)',
      keep((r) => r.set === 'batch1'),
      threshold,
    ),
    lineOf(
      'second batch',
      keep((r) => r.set === 'batch2'),
      threshold,
    ),
    lineOf(
      'histories',
      keep((r) => r.set === 'histories'),
      threshold,
    ),
    lineOf(
      'second batch and histories (rows neither the rules nor the threshold were written from)',
      keep((r) => r.set !== 'batch1'),
      threshold,
    ),
    lineOf(
      'English',
      keep((r) => r.lang === 'en'),
      threshold,
    ),
    lineOf(
      'other languages',
      keep((r) => r.lang !== 'en'),
      threshold,
    ),
    lineOf(
      'without soft rows',
      keep((r) => !r.soft || !r.positive),
      threshold,
    ),
    '',
    'Fitted without the second batch, scored on it:',
    fittedWithout('the first batch', (r) => r.set === 'batch1'),
    fittedWithout('the first batch and the histories', (r) => r.set !== 'batch2'),
    secondBatchHeldOut(rows, side, examples, 'the first batch', (r) => r.set === 'batch1'),
    // The first batch is small (63 corrections) and the rules were written from it, so a choice made there alone
    // trusts the rules more than they deserve; the labelled histories are rows of other repositories.
    secondBatchHeldOut(rows, side, examples, 'the first batch and the histories', (r) => r.set !== 'batch2'),
    '',
    'What carries the weight (fitted on all rows; words and structure, trigrams not named):',
    heaviest(correction, rows, fitModel(correction.examples(rows, DIMS), correctionOptions()).weights, 12, 5),
  ];
  return sections.join('\n\n').replace(/\n\n\n/g, '\n\n');
}
