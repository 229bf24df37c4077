/**
 * `npm run train [-- --data DIR]`: fits the correction detector on every labelled message (both batches of
 * `../shared/data` and the labelled histories) and writes `src/episodes/model/correction.json`. The threshold
 * is chosen out-of-fold (5 folds grouped by repository, fixed seed) on the rows the hand-written rules were not
 * written from (the second batch and the histories): the one with the most recall at which the rules and the
 * model together are within two points of the rules' precision alone there. The same data gives the same file.
 * `--without histories` fits without the histories (to replay them with a detector that never saw them); `--out`
 * writes elsewhere.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { correctionContext, ruleCorrection } from '../src/episodes/detect.ts';
import { crossValidate, examplesOf } from '../src/episodes/model/cross-validate.ts';
import { curve, fitDefaults, fitModel } from '../src/episodes/model/fit.ts';
import { readLabelledMessages } from '../src/episodes/model/labelled.ts';

const DIMS = 1 << 14;
/** How much precision the model may cost beside the rules' on rows neither was written from. */
const TOLERANCE = 0.02;

const { values } = parseArgs({
  options: { data: { type: 'string' }, without: { type: 'string' }, out: { type: 'string' } },
});
const root = resolve(import.meta.dirname, '..');
const dir = resolve(values.data ?? process.env['REMEM_DATA_DIR'] ?? join(root, '..', 'shared', 'data'));
// `--without histories` leaves a set out of the fit: to replay the histories with a detector that never saw them.
const rows = readLabelledMessages(dir).filter((row) => row.set !== values.without);
const examples = examplesOf(rows, (said, before) => correctionContext(said, before), DIMS);
const options = { ...fitDefaults, dims: DIMS };
const scored = crossValidate(rows, examples, { ...options, folds: 5 });
const unseen = scored.filter(({ row }) => row.set !== 'batch1');
const ruled = unseen.map(({ row }) => ruleCorrection(row.said, row.before) !== null);
const rulesAlone = curve(
  unseen.map(({ positive }, i) => ({ score: ruled[i] ? 1 : 0, positive })),
  [1],
)[0]!;
const union = (threshold: number) =>
  curve(
    unseen.map(({ score, positive }, i) => ({ score: ruled[i] || score >= threshold ? 1 : 0, positive })),
    [1],
  )[0]!;
const candidates = Array.from({ length: 19 }, (_, i) => 0.05 * (i + 1))
  .map((threshold) => ({ ...union(threshold), threshold: Math.round(threshold * 100) / 100 }))
  .filter((point) => point.precision >= rulesAlone.precision - TOLERANCE);
const chosen = candidates.sort((a, b) => b.recall - a.recall || a.threshold - b.threshold)[0];
if (!chosen) throw new Error('no threshold keeps the rules’ precision out-of-fold');
const model = fitModel(examples, options);
const round = (x: number) => Math.round(x * 1e4) / 1e4;
const file = {
  format: 'remem-correction-model',
  version: 1,
  dims: DIMS,
  threshold: chosen.threshold,
  bias: round(model.bias),
  weights: [...model.weights].map(round),
  measured: {
    rows: rows.length,
    positives: rows.filter((row) => row.positive).length,
    outOfFold: {
      rows: 'batch2 and histories',
      rulesAlone: { precision: round(rulesAlone.precision), recall: round(rulesAlone.recall) },
      withModel: { precision: round(chosen.precision), recall: round(chosen.recall) },
      folds: 5,
      seed: options.seed,
    },
  },
};
const out = resolve(values.out ?? join(root, 'src', 'episodes', 'model', 'correction.json'));
writeFileSync(out, `${JSON.stringify(file)}\n`);
console.log(
  `Fitted on ${rows.length} messages; threshold ${chosen.threshold}: out-of-fold on the second batch and the histories, rules alone P ${rulesAlone.precision.toFixed(2)} R ${rulesAlone.recall.toFixed(2)}, with the model P ${chosen.precision.toFixed(2)} R ${chosen.recall.toFixed(2)}; wrote ${out}`,
);
