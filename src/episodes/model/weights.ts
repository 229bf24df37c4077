/**
 * The one format of a learned detector's weights file (`<detector>.json` beside this file, written by
 * `npm run train`, kept in the repository as data), and scoring with one: read once per process, on first use.
 */
import type { Fitted } from './fit.ts';

/** The detectors with a learned model. */
export type DetectorModel = 'correction' | 'failure' | 'surprise' | 'handback';

/** The format's version: a file of another is refused, not misread. */
export const WEIGHTS_VERSION = 3;

export interface ModelWeights {
  format: 'remem-detector-model';
  version: number;
  detector: DetectorModel;
  dims: number;
  /** The positive class at or over this probability. */
  threshold: number;
  /** How the weights were fitted: chosen out-of-fold with the threshold. */
  fit: { rate: number; epochs: number; l2: number; seed: number; damping: number };
  bias: number;
  /** Dense, one per dimension, rounded: the file stays small and diffs stay readable. */
  weights: number[];
  /** What the training script measured out-of-fold when it wrote the file. */
  measured: Record<string, unknown>;
}

export interface LoadedModel {
  fitted: Fitted;
  file: ModelWeights;
}

/** A weights file checked and unpacked, once per process: `read` hands over the parsed JSON. */
export function lazyModel(detector: DetectorModel, read: () => unknown): () => LoadedModel {
  let loaded: LoadedModel | null = null;
  return () => {
    if (loaded) return loaded;
    const file = read() as ModelWeights;
    if (
      file.format !== 'remem-detector-model' ||
      file.version !== WEIGHTS_VERSION ||
      file.detector !== detector
    )
      throw new Error(
        `${detector} weights: expected remem-detector-model v${WEIGHTS_VERSION} for ${detector}`,
      );
    loaded = { fitted: { bias: file.bias, weights: Float64Array.from(file.weights) }, file };
    return loaded;
  };
}

/** The probability a model gives to the features `visitAll` hands it, with nothing collected. */
export function scoreWith(
  { fitted, file }: LoadedModel,
  visitAll: (dims: number, visit: (index: number, value: number) => void) => void,
): number {
  let sum = fitted.bias;
  const w = fitted.weights;
  visitAll(file.dims, (index, value) => {
    sum += (w[index] ?? 0) * value;
  });
  return 1 / (1 + Math.exp(-sum));
}
