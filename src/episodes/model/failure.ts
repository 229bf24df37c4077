/**
 * The learned failure detector at run time: the weights `npm run train` wrote (`failure.json`), and the threshold
 * chosen out-of-fold when they were fitted. At or over it, a failed call was the agent's mistake.
 */
import weightsFile from './failure.json' with { type: 'json' };
import { type FailureCall, type FailureContext, visitFailureFeatures } from './failure-features.ts';
import { lazyModel, type ModelWeights, scoreWith } from './weights.ts';

const model = lazyModel('failure', () => weightsFile);

/** The probability that a failed call was the agent's own mistake, not the environment's. */
export function mistakeProbability(call: FailureCall, context: FailureContext): number {
  return scoreWith(model(), (dims, visit) => visitFailureFeatures(call, context, dims, visit));
}

export function mistakeThreshold(): number {
  return model().file.threshold;
}

/** The fitting settings the shipped weights were fitted with, to refit the same way on other rows. */
export function failureFit(): ModelWeights['fit'] {
  return model().file.fit;
}
