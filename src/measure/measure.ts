import type { Params } from '../core/index.ts';
import type { Store } from '../store/index.ts';
import { loadHistory } from './history.ts';
import { type HoldoutFigures, holdoutFigures } from './holdout.ts';
import {
  type PredictionFigures,
  predictionFigures,
  type RepeatFigures,
  repeatFigures,
  surpriseFigures,
  type WeekOfSurprises,
} from './rates.ts';
import { type ReplayFigures, replayFigures } from './replay.ts';

/** What `remem measure` reports: the memory's own effect, read from the store alone. */
export interface MeasureReport {
  at: string;
  /** Every comparison is in the hashed space: the same-surprise cut on the person's words, the priming cut. */
  space: 'hashed';
  cuts: { sameSurprise: number; priming: number };
  sessions: number;
  /** How often the person says again a correction given in an earlier session. */
  repeatYourself: RepeatFigures;
  /** How often the agent meets again a failure of an earlier session. */
  repeatedErrors: RepeatFigures;
  predictions: PredictionFigures;
  surprises: { sessions: number; total: number; byWeek: WeekOfSurprises[] };
  /** The randomized comparison the holdout runs: shown primes and reminders against held-back ones. */
  holdout: HoldoutFigures;
  /** Against normal memory, replayed over the history. */
  replay: ReplayFigures;
}

/** Load → measure: every figure is a pure function of what the store holds (and the hooks' unmoved logs). */
export function measure(store: Store, options: { params: Params; now: string }): MeasureReport {
  const history = loadHistory(store.db, store.home, options.params);
  const surprises = surpriseFigures(history);
  return {
    at: options.now,
    space: 'hashed',
    cuts: { sameSurprise: options.params.sameSurprise.hashed, priming: options.params.priming.hashed },
    sessions: surprises.sessions,
    repeatYourself: repeatFigures(history, 'correction'),
    repeatedErrors: repeatFigures(history, 'error'),
    predictions: predictionFigures(history),
    surprises,
    holdout: holdoutFigures(history),
    replay: replayFigures(history),
  };
}
