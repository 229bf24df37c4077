/**
 * `npm run train [-- --data DIR]`: fits each shipped learned detector (`src/episodes/training.ts`) on every
 * labelled row of `../shared/data` (both batches, and the labelled histories for corrections) and writes its
 * weights to `src/episodes/model/<detector>.json`. How the fit runs (its learning rate and number of passes,
 * `FIT_GRID`) and the threshold are chosen together out-of-fold (5 folds grouped by repository, fixed seed), for
 * each detector's goal. The same data gives the same files.
 * `--without histories` fits without the histories (to replay them with a detector that never saw them); `--out
 * DIR` writes elsewhere; `--detector NAME` fits that one alone.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { train, trainables } from '../src/episodes/training.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    without: { type: 'string' },
    out: { type: 'string' },
    detector: { type: 'string' },
  },
});
const root = resolve(import.meta.dirname, '..');
const dir = resolve(values.data ?? process.env['REMEM_DATA_DIR'] ?? join(root, '..', 'shared', 'data'));
const outDir = resolve(values.out ?? join(root, 'src', 'episodes', 'model'));
const f = (x: number) => x.toFixed(2);
for (const spec of trainables.filter(
  (spec) => spec.shipped && (values.detector === undefined || spec.detector === values.detector),
)) {
  // `--without histories` leaves a set out of the fit: to replay the histories with a detector that never saw them.
  const file = train(spec, dir, (row) => row.set !== values.without);
  const out = join(outDir, `${spec.detector}.json`);
  writeFileSync(out, `${JSON.stringify(file)}\n`);
  const oof = file.measured['outOfFold'] as Record<string, Record<string, number>>;
  const rules = oof['rulesAlone']!;
  const model = oof['withModel']!;
  console.log(
    `${spec.detector}: fitted on ${file.measured['rows']} rows at rate ${file.fit.rate}, ${file.fit.epochs} epochs; threshold ${file.threshold}: out-of-fold (${oof['rows']} rows), rules alone P ${f(rules['precision']!)} R ${f(rules['recall']!)} A ${f(rules['accuracy']!)}, with the model P ${f(model['precision']!)} R ${f(model['recall']!)} A ${f(model['accuracy']!)}; wrote ${out}`,
  );
}
