/**
 * The learned correction detector at run time: the weights `npm run train` wrote (`correction.json`, data kept
 * in the repository and versioned with it), read once per process, and the threshold chosen out-of-fold for
 * precision when they were fitted.
 */
import weightsFile from './correction.json' with { type: 'json' };
import { type Context, visitFeatures } from './features.ts';
import type { Fitted } from './fit.ts';

export interface CorrectionWeights {
  format: 'remem-correction-model';
  version: number;
  dims: number;
  /** A message is a correction at or over this probability. */
  threshold: number;
  /** How the weights were fitted: chosen out-of-fold with the threshold. */
  fit: { rate: number; epochs: number; l2: number; seed: number; damping: number };
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
  let sum = fitted.bias;
  const w = fitted.weights;
  visitFeatures(said, before, context, weights.dims, (index, value) => {
    sum += (w[index] ?? 0) * value;
  });
  return 1 / (1 + Math.exp(-sum));
}

export function correctionThreshold(): number {
  return model().weights.threshold;
}

/** The fitting settings the shipped weights were fitted with, to refit the same way on other rows. */
export function correctionFit(): CorrectionWeights['fit'] {
  return model().weights.fit;
}
