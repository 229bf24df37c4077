/**
 * The learned correction detector at run time: the weights `npm run train` wrote (`correction.json`, data kept
 * in the repository and versioned with it), read once per process, and the threshold chosen out-of-fold for
 * precision when they were fitted.
 */
import weightsFile from './correction.json' with { type: 'json' };
import { type Context, featuresOf } from './features.ts';
import { type Fitted, probability } from './fit.ts';

export interface CorrectionWeights {
  format: 'remem-correction-model';
  version: number;
  dims: number;
  /** A message is a correction at or over this probability. */
  threshold: number;
  bias: number;
  /** Dense, one per dimension, rounded: the file stays small and diffs stay readable. */
  weights: number[];
  /** What the training script measured out-of-fold when it wrote the file. */
  measured: Record<string, unknown>;
}

let loaded: { model: Fitted; weights: CorrectionWeights } | null = null;

function model(): { model: Fitted; weights: CorrectionWeights } {
  if (loaded) return loaded;
  const weights = weightsFile as CorrectionWeights;
  loaded = { model: { bias: weights.bias, weights: Float64Array.from(weights.weights) }, weights };
  return loaded;
}

/** The probability that `said`, after the agent's `before`, corrects the agent. */
export function correctionProbability(said: string, before: string, context: Context): number {
  const { model: fitted, weights } = model();
  return probability(fitted, featuresOf(said, before, context, weights.dims));
}

export function correctionThreshold(): number {
  return model().weights.threshold;
}
