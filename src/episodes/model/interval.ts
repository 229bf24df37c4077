/**
 * How far a detector's figure could move on other repositories like the ones it was measured on. The rows of one
 * repository are alike (one person, one agent, one way of writing), so they are not independent draws: the
 * bootstrap draws repositories, as many as there are, with replacement, each with every one of its rows, and
 * reads precision and recall off each draw. The interval is the middle 95 % of the draws.
 */
import { percentile, seeded } from '../../core/index.ts';

export interface Decided {
  /** The repository the row came from. */
  group: string;
  positive: boolean;
  detected: boolean;
}

export interface Interval {
  low: number;
  high: number;
}

interface Counts {
  tp: number;
  fp: number;
  positives: number;
}

/**
 * The middle 95 % of precision and recall over `draws` bootstrap draws of the repositories. A draw that detects
 * nothing has no precision and one without corrections no recall: each is left out of that figure's draws.
 */
export function groupedInterval(
  rows: readonly Decided[],
  draws = 1000,
  seed = 7,
): { precision: Interval; recall: Interval } {
  const byGroup = new Map<string, Counts>();
  for (const row of rows) {
    const counts = byGroup.get(row.group) ?? { tp: 0, fp: 0, positives: 0 };
    if (row.positive) counts.positives++;
    if (row.detected && row.positive) counts.tp++;
    if (row.detected && !row.positive) counts.fp++;
    byGroup.set(row.group, counts);
  }
  // In a fixed order, so that the same rows give the same interval whatever order they came in.
  const groups = [...byGroup.keys()].sort().map((group) => byGroup.get(group)!);
  const random = seeded(seed);
  const precisions: number[] = [];
  const recalls: number[] = [];
  for (let draw = 0; draw < draws && groups.length > 0; draw++) {
    let tp = 0;
    let fp = 0;
    let positives = 0;
    for (let k = 0; k < groups.length; k++) {
      const counts = groups[Math.floor(random() * groups.length)]!;
      tp += counts.tp;
      fp += counts.fp;
      positives += counts.positives;
    }
    if (tp + fp > 0) precisions.push(tp / (tp + fp));
    if (positives > 0) recalls.push(tp / positives);
  }
  const middle = (values: number[]): Interval => ({
    low: percentile(values, 0.025) ?? Number.NaN,
    high: percentile(values, 0.975) ?? Number.NaN,
  });
  return { precision: middle(precisions), recall: middle(recalls) };
}
