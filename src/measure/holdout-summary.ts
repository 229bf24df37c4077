/**
 * The holdout as a person should see it: what share of sessions get no lessons and why, how many sessions it
 * has held out so far, and what the comparison it exists for says yet, with its uncertainty.
 */
import type { Params } from '../core/index.ts';
import { holdoutTally, type Store } from '../store/index.ts';
import { formatP, formatPercent, formatRate } from './format.ts';
import { loadHistory } from './history.ts';
import { type Comparison, holdoutFigures } from './holdout.ts';

export interface HoldoutSummary {
  share: number;
  sessionsHeld: number;
  sessionsShown: number;
  /** A primed lesson met again in its session: shown against held out. */
  primes: Comparison;
}

export function holdoutSummary(store: Store, params: Params, share: number): HoldoutSummary {
  const tally = holdoutTally(store.db);
  const figures = holdoutFigures(loadHistory(store.db, store.home, params));
  return { share, sessionsHeld: tally.held, sessionsShown: tally.shown, primes: figures.primes };
}

/** What the holdout is, how to set it, and what it has shown so far. */
export function holdoutLines(summary: HoldoutSummary): string[] {
  const { shown, heldOut, p } = summary.primes;
  return [
    `Holdout: ${formatPercent(summary.share)} of sessions get no lessons, chosen at random, so that Remem can tell whether its lessons help (REMEM_HOLDOUT or "holdout" in config.json sets the share; 0 turns it off).`,
    `  So far ${summary.sessionsHeld} sessions held out, ${summary.sessionsShown} shown lessons.`,
    shown.n + heldOut.n === 0
      ? '  No primed lesson to compare yet.'
      : `  A primed lesson met again in its session: shown ${formatRate(shown.k, shown.n)}, held out ${formatRate(heldOut.k, heldOut.n)}${p === null ? '' : `; Fisher exact p = ${formatP(p)} (below 0.05, the difference is unlikely to be chance)`}.`,
  ];
}
