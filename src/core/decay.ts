/** Strength after `days` without a touch: it halves every half-life. The one decay every reader computes. */
export function decayed(strength: number, days: number, halfLifeDays: number): number {
  return days <= 0 ? strength : strength * 0.5 ** (days / halfLifeDays);
}
