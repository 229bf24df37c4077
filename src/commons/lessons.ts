import {
  type CommonsState,
  computeStates,
  type LessonState,
  type StateOptions,
  storedRecord,
} from '../protocol/index.ts';
import type { CommonsStore } from './store.ts';

export interface StatesCache {
  /** Every lesson's state, sorted by hash; recomputed when the store changed or the copy is older than `ttlMs`. */
  states(nowIso: string): Promise<readonly LessonState[]>;
}

/**
 * The states of every lesson held, computed from all records. Recomputing is linear in the records, so a copy
 * is kept while the store's version holds and for at most `ttlMs` (time alone moves lessons to fading).
 */
export function createStatesCache(
  store: CommonsStore,
  options: Omit<StateOptions, 'now'> & { ttlMs: number },
): StatesCache {
  let cached: { version: string; at: number; states: LessonState[] } | null = null;
  let pending: Promise<LessonState[]> | null = null;
  return {
    async states(nowIso) {
      const version = await store.version();
      const at = Date.parse(nowIso);
      if (cached !== null && cached.version === version && Math.abs(at - cached.at) < options.ttlMs) {
        return cached.states;
      }
      pending ??= (async () => {
        try {
          const lines = await store.allRecords();
          const states = [...computeStates(lines.map(storedRecord), { ...options, now: nowIso }).values()];
          cached = { version, at, states };
          return states;
        } finally {
          pending = null;
        }
      })();
      return pending;
    },
  };
}

export const listableStates: readonly CommonsState[] = [
  'candidate',
  'common',
  'fading',
  'revoked',
  'removed',
];
