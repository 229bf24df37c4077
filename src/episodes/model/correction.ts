/**
 * The learned correction detector at run time: the weights `npm run train` wrote (`correction.json`), and the
 * threshold chosen out-of-fold for precision when they were fitted.
 */
import weightsFile from './correction.json' with { type: 'json' };
import { type Context, visitFeatures } from './features.ts';
import { lazyModel, type ModelWeights, scoreWith } from './weights.ts';

const model = lazyModel('correction', () => weightsFile);

/** The probability that `said`, after the agent's `before`, corrects the agent. */
export function correctionProbability(said: string, before: string, context: Context): number {
  return scoreWith(model(), (dims, visit) => visitFeatures(said, before, context, dims, visit));
}

export function correctionThreshold(): number {
  return model().file.threshold;
}

/** The fitting settings the shipped weights were fitted with, to refit the same way on other rows. */
export function correctionFit(): ModelWeights['fit'] {
  return model().file.fit;
}
