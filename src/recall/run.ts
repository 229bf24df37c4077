import type { Config } from '../core/index.ts';
import { createSpace, hashedSpace, type Space } from '../embed/index.ts';
import { lastSleep, type Store } from '../store/index.ts';
import { primeIndexVectors, showToAgent, type Visible, visibleToAgent } from '../truth/index.ts';
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

/**
 * Who asks. An agent (MCP, the API): what it is shown counts as use (each hit touched) and is audited as the
 * 'recall' moment, as every path that shows lessons to an agent is. A person at the command line: looking
 * changes nothing, unless they ask it to count as use (`touch`).
 */
export type RecallBy = { agent: true; session?: string | null } | { agent: false; touch: boolean };

/** Recall from the command line, MCP or the API: rank; then, as `by` says, touch and audit what is returned. */
export async function recall(
  store: Store,
  config: Config,
  query: string,
  options: { k: number; now: string; scope: IndexScope; by: RecallBy },
): Promise<RecallAnswer> {
  const space = spaceOfStore(store, config);
  const byHash = layerVectors(store, space);
  // The query is embedded before the read: a model space answers later, and the read and its audit are one.
  const [vector] = await space.embed([query]);
  const { by, scope, now } = options;
  const ranked = (visible: readonly Visible[]) => {
    const index = loadRecallIndex(store.db, space, visible, scope, config.params, byHash);
    const hits = rankRecall(index, vector!, { k: options.k, now, params: config.params });
    if (by.agent || by.touch) touch(store.db, hits, now, config.params);
    return { index, hits };
  };
  if (!by.agent) {
    return {
      query,
      space: space.name,
      hits: ranked(visibleToAgent(store.db, { now, scope })).hits,
    };
  }
  const hits = showToAgent(
    store.db,
    { now, scope, moment: 'recall', session: by.session ?? null },
    (visible) => {
      const { index, hits } = ranked(visible);
      const dropped = Math.max(0, index.items.length - hits.length);
      // A question shows both of its lessons: both are audited, as every other path does.
      const hashOf = new Map(
        visible
          .flatMap((entry) => (entry.type === 'lesson' ? [entry.lesson] : entry.lessons))
          .map((l) => [l.id, l.hash]),
      );
      return {
        value: hits,
        lessonHashes: hits.flatMap(({ item }) =>
          item.hash ? [item.hash] : (item.lessonIds ?? []).flatMap((id) => hashOf.get(id) ?? []),
        ),
        considered: index.items.length,
        reasons: dropped > 0 ? { below_top_k: dropped } : {},
      };
    },
  );
  return { query, space: space.name, hits };
}
