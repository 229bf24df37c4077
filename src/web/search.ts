import type { Config, Episode } from '../core/index.ts';
import type { Space } from '../embed/index.ts';
import {
  lessonItem,
  type RecallIndex,
  type RecallItem,
  rankRecall,
  spaceOfStore,
  vectorsIn,
} from '../recall/index.ts';
import { type Db, listEpisodes, listLessons, type Store } from '../store/index.ts';
import { stateOf } from './lessons.ts';

export interface SearchHit {
  type: 'lesson' | 'episode';
  id: number;
  kind: string;
  title: string;
  text: string;
  score: number;
  components: { cosine: number; relevance: number; recency: number; strength: number };
  /** A lesson's state; an episode's session. */
  state?: string;
  session?: string;
  lessonId?: number | null;
  at: string;
}

export interface SearchAnswer {
  query: string;
  space: string;
  hits: SearchHit[];
}

/**
 * Everything the owner may look through, with its vector in the store's space: every lesson not merged into
 * another (held ones too: the owner sees what agents do not) and every live episode. An item with no stored
 * vector is embedded now when the space can do it without waiting (hashed), or left out.
 */
function ownerIndex(
  db: Db,
  space: Space,
  dims: number,
): { index: RecallIndex; states: Map<number, string>; episodes: Map<number, Episode> } {
  const lessonVectors = vectorsIn(db, 'lesson', space);
  const episodeVectors = vectorsIn(db, 'episode', space);
  const items: RecallItem[] = [];
  const vectors: Float32Array[] = [];
  const states = new Map<number, string>();
  const add = (item: RecallItem, stored: Float32Array | undefined, text: string) => {
    const vec = stored ?? space.embedSync?.(text);
    if (!vec || vec.length !== dims) return;
    items.push(item);
    vectors.push(vec);
  };
  for (const lesson of listLessons(db)) {
    if (lesson.mergedInto !== null) continue;
    states.set(lesson.id, stateOf(lesson));
    add(lessonItem(lesson), lessonVectors.get(lesson.id), lesson.text);
  }
  const episodes = new Map(
    listEpisodes(db, { includeArchived: true }).map((episode) => [episode.id, episode]),
  );
  for (const episode of episodes.values()) {
    add(
      {
        type: 'episode',
        id: episode.id,
        kind: episode.kind,
        text: episode.text,
        title: episode.title,
        at: episode.happenedAt,
        strength: episode.strength,
        since: episode.touchedAt,
        project: episode.project,
      },
      episodeVectors.get(episode.id),
      episode.kind === 'correction' ? (episode.said ?? episode.text) : `${episode.title}\n${episode.text}`,
    );
  }
  const matrix = new Float32Array(items.length * dims);
  vectors.forEach((vec, row) => {
    matrix.set(vec, row * dims);
  });
  const atMs = Float64Array.from(items, (item) => Date.parse(item.at));
  const sinceMs = Float64Array.from(items, (item) => Date.parse(item.since));
  // A full pass over the vectors: the owner searches now and then, never on an agent's hot path.
  return { index: { space, dims, items, matrix, atMs, sinceMs, postings: null }, states, episodes };
}

/**
 * Search over lessons and episodes with recall's own scoring (0.60 relevance + 0.25 recency + 0.15 strength),
 * over everything the owner holds. Unlike recall it touches nothing: a person looking is not use.
 */
export async function searchMemory(
  store: Store,
  config: Config,
  query: string,
  options: { k: number; now: string },
): Promise<SearchAnswer> {
  const space = spaceOfStore(store, config);
  const [vector] = await space.embed([query]);
  if (!vector) return { query, space: space.name, hits: [] };
  const { index, states, episodes } = ownerIndex(store.db, space, vector.length);
  const hits = rankRecall(index, vector, { k: options.k, now: options.now, params: config.params });
  return {
    query,
    space: space.name,
    hits: hits.map(({ item, score, components }) => {
      const episode = item.type === 'episode' ? episodes.get(item.id) : undefined;
      return {
        type: item.type === 'episode' ? 'episode' : 'lesson',
        id: item.id,
        kind: item.kind,
        title: item.title,
        text: item.text,
        score,
        components,
        at: item.at,
        ...(item.type === 'lesson' ? { state: states.get(item.id) ?? 'active' } : {}),
        ...(episode ? { session: episode.session, lessonId: episode.lessonId } : {}),
      };
    }),
  };
}
