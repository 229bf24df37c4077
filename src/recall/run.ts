import type { Config } from '../core/index.ts';
import { createSpace, hashedSpace, type Space } from '../embed/index.ts';
import { lastSleep, type Store } from '../store/index.ts';
import { primeIndexVectors } from '../truth/index.ts';
import { type RecallHit, rankRecall, touch } from './recall.ts';
import { type IndexScope, loadRecallIndex } from './recall-index.ts';

export interface RecallAnswer {
  query: string;
  space: string;
  hits: RecallHit[];
}

/** The space the store's vectors are in: the last sleep's, or the hashed space before any sleep. */
export function spaceOfStore(store: Store, config: Config): Space {
  const last = lastSleep(store.db);
  if (!last || last.space === 'hashed') return hashedSpace(config.params);
  const configured = createSpace(config.embed, config.params);
  return configured.name === last.space ? configured : hashedSpace(config.params);
}

/**
 * The prime index's vectors of lessons by hash, when it is written in `space`: there a layer's lessons, which
 * the store never embeds, have theirs (a model space cannot embed them while recall waits).
 */
function layerVectors(store: Store, space: Space): Map<string, Float32Array> {
  if (space.embedSync) return new Map();
  return primeIndexVectors(store.home, space.name);
}

/** Recall from the command line, MCP or the API: rank, then touch what is returned. */
export async function recall(
  store: Store,
  config: Config,
  query: string,
  options: { k: number; now: string; scope: IndexScope },
): Promise<RecallAnswer> {
  const space = spaceOfStore(store, config);
  const index = loadRecallIndex(
    store.db,
    space,
    options.scope,
    config.params,
    options.now,
    layerVectors(store, space),
  );
  const [vector] = await space.embed([query]);
  const hits = rankRecall(index, vector!, { k: options.k, now: options.now, params: config.params });
  touch(store.db, hits, options.now, config.params);
  return { query, space: space.name, hits };
}
