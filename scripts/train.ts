/**
 * `npm run train [-- --data DIR]`: fits the correction detector on every labelled message (both batches of
 * `../shared/data` and the labelled histories) and writes `src/episodes/model/correction.json`. How the fit runs
 * (its learning rate and number of passes, `FIT_GRID`) and the threshold are chosen together out-of-fold (5 folds
 * grouped by repository, fixed seed) on the rows the hand-written rules were not written from (the second batch
 * and the histories): the pair with the most recall at which the rules and the model together are within one
 * point of the rules' precision alone there. The same data gives the same file.
 * `--without histories` fits without the histories (to replay them with a detector that never saw them); `--out`
 * writes elsewhere.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { correctionContext, modelMayJudge, ruleCorrection } from '../src/episodes/detect.ts';
import { chooseFit, examplesOf, PRECISION_TOLERANCE } from '../src/episodes/model/cross-validate.ts';
import { fitDefaults, fitModel } from '../src/episodes/model/fit.ts';
import { readLabelledMessages } from '../src/episodes/model/labelled.ts';

const DIMS = 1 << 14;

const { values } = parseArgs({
  options: { data: { type: 'string' }, without: { type: 'string' }, out: { type: 'string' } },
});
const root = resolve(import.meta.dirname, '..');
const dir = resolve(values.data ?? process.env['REMEM_DATA_DIR'] ?? join(root, '..', 'shared', 'data'));
// `--without histories` leaves a set out of the fit: to replay the histories with a detector that never saw them.
const rows = readLabelledMessages(dir).filter((row) => row.set !== values.without);
const examples = examplesOf(rows, (said, before) => correctionContext(said, before), DIMS);
const side = {
  ruled: rows.map((row) => ruleCorrection(row.said, row.before) !== null),
  mayJudge: rows.map((row) => modelMayJudge(row.said, correctionContext(row.said, row.before))),
};
const options = { dims: DIMS, l2: fitDefaults.l2, seed: fitDefaults.seed, damping: fitDefaults.damping };
const chosen = chooseFit(rows, examples, side, { ...options, folds: 5, tolerance: PRECISION_TOLERANCE });
const model = fitModel(examples, { ...options, rate: chosen.rate, epochs: chosen.epochs });
const round = (x: number) => Math.round(x * 1e4) / 1e4;
const file = {
  format: 'remem-correction-model',
  version: 2,
  dims: DIMS,
  threshold: chosen.threshold,
  fit: {
    rate: chosen.rate,
    epochs: chosen.epochs,
    l2: options.l2,
    seed: options.seed,
    damping: options.damping,
  },
  bias: round(model.bias),
  weights: [...model.weights].map(round),
  measured: {
    rows: rows.length,
    positives: rows.filter((row) => row.positive).length,
    outOfFold: {
      rows: 'batch2 and histories',
      rulesAlone: { precision: round(chosen.rules.precision), recall: round(chosen.rules.recall) },
      withModel: { precision: round(chosen.withModel.precision), recall: round(chosen.withModel.recall) },
      folds: 5,
      seed: options.seed,
    },
  },
};
const out = resolve(values.out ?? join(root, 'src', 'episodes', 'model', 'correction.json'));
writeFileSync(out, `${JSON.stringify(file)}\n`);
console.log(
  `Fitted on ${rows.length} messages at rate ${chosen.rate}, ${chosen.epochs} epochs; threshold ${chosen.threshold}: out-of-fold on the second batch and the histories, rules alone P ${chosen.rules.precision.toFixed(2)} R ${chosen.rules.recall.toFixed(2)}, with the model P ${chosen.withModel.precision.toFixed(2)} R ${chosen.withModel.recall.toFixed(2)}; wrote ${out}`,
);
