import type { EpisodeKind, Params } from '../core/index.ts';
import { fromBlob, type Space } from '../embed/index.ts';
import { type Db, listVectors } from '../store/index.ts';

/** One thing recall can return: a lesson, or an episode the raw stream gave. */
export interface RecallItem {
  type: 'lesson' | 'episode';
  id: number;
  kind: EpisodeKind;
  text: string;
  title: string;
  /** When it last changed (a lesson) or happened (an episode): recency counts from here. */
  at: string;
  /** Strength as stored, and when it was last decayed or touched. */
  strength: number;
  since: string;
  project: string | null;
}

/** Every recallable item's vector in one contiguous array, so a query is one pass over memory. */
export interface RecallIndex {
  space: Space;
  dims: number;
  items: RecallItem[];
  matrix: Float32Array;
}

export interface IndexScope {
  /** The project asking; null asks from outside any project. Personal lessons reach every project. */
  project: string | null;
  /** Every project's items (the owner's own view). */
  allProjects?: boolean;
}

interface LessonRow {
  id: number;
  kind: EpisodeKind;
  text: string;
  strength: number;
  updated_at: string;
  decayed_at: string;
  project: string | null;
}

interface EpisodeRow {
  id: number;
  kind: EpisodeKind;
  title: string;
  text: string;
  said: string | null;
  strength: number;
  happened_at: string;
  touched_at: string;
  project: string | null;
}

function inScope(project: string | null, scope: IndexScope): boolean {
  return scope.allProjects === true || project === null || project === scope.project;
}

/**
 * Loads what recall searches: the lessons an agent may see and the live episodes, each with its vector in
 * `space`. Items with no vector there are embedded now when the space can do it without waiting (hashed);
 * vectors of another space are never compared.
 */
export function loadRecallIndex(db: Db, space: Space, scope: IndexScope, params: Params): RecallIndex {
  const lessons = db
    .prepare(
      `SELECT id, kind, text, strength, updated_at, decayed_at, project FROM lessons
       WHERE merged_into IS NULL AND vetoed_at IS NULL AND archived = 0 AND review = 'approved'`,
    )
    .all() as LessonRow[];
  const episodes = db
    .prepare(
      `SELECT id, kind, title, text, said, strength, happened_at, touched_at, project FROM episodes
       WHERE live = 1 AND archived = 0`,
    )
    .all() as EpisodeRow[];
  const vectorsOf = (owner: 'lesson' | 'episode') => {
    const map = new Map<number, Float32Array>();
    for (const vector of listVectors(db, owner)) {
      if (vector.space !== space.name) continue;
      const vec = fromBlob(vector.data, vector.dims);
      if (vec) map.set(vector.id, vec);
    }
    return map;
  };
  const lessonVectors = vectorsOf('lesson');
  const episodeVectors = vectorsOf('episode');
  const items: RecallItem[] = [];
  const vectors: Float32Array[] = [];
  const add = (item: RecallItem, vec: Float32Array | undefined, embedText: string) => {
    const found = vec ?? space.embedSync?.(embedText);
    if (!found) return;
    items.push(item);
    vectors.push(found);
  };
  for (const row of lessons) {
    if (!inScope(row.project, scope)) continue;
    add(
      {
        type: 'lesson',
        id: row.id,
        kind: row.kind,
        text: row.text,
        title: row.text,
        at: row.updated_at,
        strength: row.strength,
        since: row.decayed_at,
        project: row.project,
      },
      lessonVectors.get(row.id),
      row.text,
    );
  }
  for (const row of episodes) {
    if (!inScope(row.project, scope)) continue;
    add(
      {
        type: 'episode',
        id: row.id,
        kind: row.kind,
        text: row.text,
        title: row.title,
        at: row.happened_at,
        strength: row.strength,
        since: row.touched_at,
        project: row.project,
      },
      episodeVectors.get(row.id),
      row.kind === 'correction' ? (row.said ?? row.text) : `${row.title}\n${row.text}`,
    );
  }
  const dims = vectors[0]?.length ?? space.dims ?? params.hashedDims;
  const matrix = new Float32Array(items.length * dims);
  vectors.forEach((vec, index) => {
    if (vec.length === dims) matrix.set(vec, index * dims);
  });
  return { space, dims, items, matrix };
}
