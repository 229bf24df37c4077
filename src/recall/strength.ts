import { DAY_MS, decayed, type Params } from '../core/index.ts';

/** Strength as a share of 1 that saturates: 1 → 0.5, 2 → 0.75, 3 → 0.875. */
export function strengthShare(strength: number): number {
  return strength <= 0 ? 0 : 1 - 0.5 ** strength;
}

/** Strength now: the stored value halved every half-life since it was last decayed or touched. */
export function currentStrength(
  item: { strength: number; since: string },
  now: number,
  params: Params,
): number {
  const days = (now - new Date(item.since).getTime()) / DAY_MS;
  return decayed(item.strength, days, params.decay.halfLifeDays);
}
