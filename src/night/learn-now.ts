import { type Clock, type Config, RememError } from '../core/index.ts';
import { renderMemory } from '../render/index.ts';
import { settle } from '../sleep/index.ts';
import { acquireLock, openStore } from '../store/index.ts';
import { refreshViewsEmbedding } from '../truth/index.ts';
import { wiredForRender } from './wired.ts';

export interface LearnedNow {
  /** Lessons made or strengthened from what was read; null when another run held the memory. */
  learned: number | null;
  strengthened: number;
  /** Why nothing was learned now (another `remem run` or learning was under way). */
  skipped: string | null;
}

/**
 * What a session taught, made available to the next one: the lessons pass over the new episodes, the views
 * agents read, and the memory folders. Under the nightly job's lock, so that the two never interleave; when
 * the night holds it, this gives up (the night will do the same work).
 */
export async function learnNow(config: Config, clock: Clock): Promise<LearnedNow> {
  let release: () => void;
  try {
    release = acquireLock(config.home, 'run');
  } catch (error) {
    if (error instanceof RememError && error.code === 'busy')
      return { learned: null, strengthened: 0, skipped: error.message };
    throw error;
  }
  try {
    const store = openStore(config.home);
    try {
      const report = await settle(store, config, clock);
      await refreshViewsEmbedding(store, clock.iso(), config);
      renderMemory(store, config, { now: clock.iso(), wired: await wiredForRender(config.home) });
      return { learned: report.learned.length, strengthened: report.strengthened.length, skipped: null };
    } finally {
      store.close();
    }
  } finally {
    release();
  }
}
