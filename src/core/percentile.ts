/**
 * The value at a share of the way through `values` by nearest rank (the smallest value with at least that share of
 * the values at or below it: the median of 4 values is the second), or null when there are none. The values are
 * sorted on a copy.
 */
export function percentile(values: readonly number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
