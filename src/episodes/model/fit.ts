/**
 * Logistic regression over hashed features, fitted by AdaGrad with an L2 penalty, in a fixed order (a seeded
 * shuffle): the same rows give the same weights on every machine. Small enough to refit in the bench for each
 * fold of a cross-validation.
 *
 * Each feature's sum of squared gradients starts at `damping`, not at nothing. Started at nothing, AdaGrad's
 * first step on a feature is the full learning rate whatever its gradient, so a trigram or word seen in one
 * row gets as much weight as one seen in hundreds, and the model learns the rows rather than what they share;
 * started at 1, a feature's first steps are in proportion to its gradient, and only features that keep
 * mattering row after row grow.
 */
import { seeded } from '../../core/index.ts';
import type { Feature } from './features.ts';

export interface Example {
  features: Feature[];
  positive: boolean;
  /** Dimensions fitting may leave out of this row (`FitOptions.dropout`): the hand-written rules' verdict. */
  droppable?: ReadonlySet<number>;
  /** How much the row counts in fitting: its error is scaled by it (1 unless given). */
  weight?: number;
}

export interface Fitted {
  bias: number;
  weights: Float64Array;
}

export interface FitOptions {
  dims: number;
  epochs: number;
  rate: number;
  l2: number;
  seed: number;
  /** What each feature's sum of squared gradients starts at (see above). */
  damping: number;
  /**
   * The chance that a row's droppable dimensions are left out of one step of fitting (none unless given): a
   * feature that is right on the rows it was written from cannot then carry the fit alone.
   */
  dropout?: number;
}

export const fitDefaults: Omit<FitOptions, 'dims'> = { epochs: 5, rate: 0.3, l2: 1e-5, seed: 7, damping: 1 };

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

export function logit(model: Fitted, features: readonly Feature[]): number {
  let sum = model.bias;
  for (const { index, value } of features) sum += (model.weights[index] ?? 0) * value;
  return sum;
}

export function probability(model: Fitted, features: readonly Feature[]): number {
  return 1 / (1 + Math.exp(-logit(model, features)));
}

export function fitModel(examples: readonly Example[], options: FitOptions): Fitted {
  const weights = new Float64Array(options.dims);
  const squares = new Float64Array(options.dims).fill(options.damping);
  let bias = 0;
  let biasSquares = 1e-8;
  const model = { bias, weights };
  const random = seeded(options.seed);
  const dropout = options.dropout ?? 0;
  // Its own sequence: the shuffle stays the same with dropout or without.
  const drops = dropout > 0 ? seeded(options.seed + 1) : null;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (const example of shuffled(examples, random)) {
      model.bias = bias;
      const left = example.droppable;
      const features =
        drops && left && left.size > 0 && drops() < dropout
          ? example.features.filter(({ index }) => !left.has(index))
          : example.features;
      const error = (probability(model, features) - (example.positive ? 1 : 0)) * (example.weight ?? 1);
      for (const { index, value } of features) {
        const gradient = error * value + options.l2 * weights[index]!;
        squares[index]! += gradient * gradient;
        weights[index]! -= (options.rate * gradient) / Math.sqrt(squares[index]!);
      }
      biasSquares += error * error;
      bias -= (options.rate * error) / Math.sqrt(biasSquares);
    }
  }
  return { bias, weights };
}

/** One point of a precision-recall curve: at or over `threshold`. */
export interface CurvePoint {
  threshold: number;
  precision: number;
  recall: number;
  tp: number;
  fp: number;
  fn: number;
}

/** Precision and recall at each threshold of `thresholds` over scored rows. */
export function curve(
  scored: readonly { score: number; positive: boolean }[],
  thresholds: readonly number[],
): CurvePoint[] {
  const positives = scored.filter((row) => row.positive).length;
  return thresholds.map((threshold) => {
    let tp = 0;
    let fp = 0;
    for (const row of scored) {
      if (row.score < threshold) continue;
      if (row.positive) tp++;
      else fp++;
    }
    return {
      threshold,
      precision: tp + fp === 0 ? 1 : tp / (tp + fp),
      recall: positives === 0 ? 0 : tp / positives,
      tp,
      fp,
      fn: positives - tp,
    };
  });
}

/** The lowest threshold whose precision reaches `precision` (the most recall at that precision), or null. */
export function thresholdFor(
  scored: readonly { score: number; positive: boolean }[],
  precision: number,
): CurvePoint | null {
  const thresholds = Array.from({ length: 99 }, (_, i) => (i + 1) / 100);
  const points = curve(scored, thresholds).filter((point) => point.tp > 0 && point.precision >= precision);
  return points.sort((a, b) => b.recall - a.recall || a.threshold - b.threshold)[0] ?? null;
}
