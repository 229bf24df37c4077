import type { EpisodeKind, Lesson, Params } from '../core/index.ts';
import { fromBlob, normalize, type Space } from '../embed/index.ts';
import { type Db, recallableEpisodes, type VectorOwner, vectorsInSpace } from '../store/index.ts';
import type { ReadScope, Visible } from '../truth/index.ts';
import { strengthShare } from './strength.ts';

/**
 * One thing recall can return: a lesson, an episode the raw stream gave, or two lessons that refute each
 * other put as a question (`id` is the first lesson's, `lessonIds` both).
 */
export interface RecallItem {
  type: 'lesson' | 'episode' | 'question';
  id: number;
  /** A lesson's hash: what the audit names when an agent is shown it. */
  hash?: string;
  lessonIds?: number[];
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
  /** Each item's `at` and `since` as epoch ms, parsed once (parsed per query when absent). */
  atMs?: Float64Array;
  sinceMs?: Float64Array;
  /** Each item's strength share before any decay: the most its strength can add to a score. */
  strengthCap?: Float64Array;
  /** For sparse vectors: by dimension, the rows with an entry there and its value. */
  postings?: { offsets: Uint32Array; rows: Uint32Array; values: Float32Array } | null;
}

/** Who asks: truth's own reading scope (a project, or every project for the owner). */
export type IndexScope = ReadScope;

/** A lesson as recall returns it: recency counts from its last change, strength decays from its last touch. */
export function lessonItem(lesson: Lesson): RecallItem {
  return {
    type: 'lesson',
    id: lesson.id,
    hash: lesson.hash,
    kind: lesson.kind,
    text: lesson.text,
    title: lesson.text,
    at: lesson.updatedAt,
    strength: lesson.strength,
    since: lesson.decayedAt,
    project: lesson.project,
  };
}

/** Every stored vector of one kind of owner in `space`, by owner id; a corrupt one is left out. */
export function vectorsIn(db: Db, owner: VectorOwner, space: Space): Map<number, Float32Array> {
  const found = new Map<number, Float32Array>();
  for (const vector of vectorsInSpace(db, owner, space.name).values()) {
    const vec = fromBlob(vector.data, vector.dims);
    if (vec) found.set(vector.id, vec);
  }
  return found;
}

/** A question is about both of its lessons: the direction of their summed vectors. */
function meanOf(a: Float32Array | undefined, b: Float32Array | undefined): Float32Array | undefined {
  if (!a || !b || a.length !== b.length) return undefined;
  return normalize(a.map((value, index) => value + b[index]!));
}

function inScope(project: string | null, scope: IndexScope): boolean {
  return scope.allProjects === true || project === null || project === scope.project;
}

/**
 * Loads what recall searches: what an agent may see of the lessons (`visible`, as truth gives it: current,
 * approved, in scope, each contradiction as a question) and the live episodes of its scope — those a lesson holds only
 * while that lesson may be shown — each with its vector in `space`. Items with no vector there are embedded now when the
 * space can do it without waiting (hashed); vectors of another space are never compared.
 */
export function loadRecallIndex(
  db: Db,
  space: Space,
  visible: readonly Visible[],
  scope: IndexScope,
  params: Params,
  /** Vectors in `space` by lesson hash for lessons the store holds none for (a layer's, from the prime index). */
  byHash: ReadonlyMap<string, Float32Array> = new Map(),
): RecallIndex {
  const shown = new Set(
    visible.flatMap((item) =>
      item.type === 'lesson' ? [item.lesson.id] : item.lessons.map((lesson) => lesson.id),
    ),
  );
  // An episode a lesson holds speaks through that lesson: it is recalled only while the lesson may be shown.
  const episodes = recallableEpisodes(db).filter((row) => row.lesson_id === null || shown.has(row.lesson_id));
  const lessonVectors = vectorsIn(db, 'lesson', space);
  const episodeVectors = vectorsIn(db, 'episode', space);
  const items: RecallItem[] = [];
  const vectors: Float32Array[] = [];
  const add = (item: RecallItem, vec: Float32Array | undefined, embedText: string) => {
    const found = vec ?? space.embedSync?.(embedText);
    if (!found) return;
    items.push(item);
    vectors.push(found);
  };
  for (const item of visible) {
    if (item.type === 'lesson') {
      const { lesson } = item;
      add(lessonItem(lesson), lessonVectors.get(lesson.id) ?? byHash.get(lesson.hash), lesson.text);
      continue;
    }
    const [a, b] = item.lessons;
    const stronger = a.strength >= b.strength ? a : b;
    add(
      {
        type: 'question',
        id: a.id,
        lessonIds: [a.id, b.id],
        kind: a.kind,
        text: item.text,
        title: 'Open question',
        at: [a.updatedAt, b.updatedAt].sort()[1]!,
        strength: stronger.strength,
        since: stronger.decayedAt,
        project: a.project ?? b.project,
      },
      meanOf(lessonVectors.get(a.id), lessonVectors.get(b.id)),
      item.text,
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
  const atMs = Float64Array.from(items, (item) => new Date(item.at).getTime());
  const sinceMs = Float64Array.from(items, (item) => new Date(item.since).getTime());
  const strengthCap = Float64Array.from(items, (item) => strengthShare(item.strength));
  return {
    space,
    dims,
    items,
    matrix,
    atMs,
    sinceMs,
    strengthCap,
    postings: postingsOf(matrix, items.length, dims),
  };
}

/**
 * The vectors by dimension, when most of their entries are zero (the hashed space: a text touches a few dozen
 * of 256 dimensions). A query then visits only the items that share a dimension with it, which are the only
 * ones whose cosine is not zero: the same cosines, without the full pass.
 */
function postingsOf(
  matrix: Float32Array,
  rows: number,
  dims: number,
): NonNullable<RecallIndex['postings']> | null {
  let nonZero = 0;
  for (let i = 0; i < matrix.length; i++) if (matrix[i] !== 0) nonZero++;
  if (rows === 0 || nonZero > matrix.length * 0.3) return null;
  const offsets = new Uint32Array(dims + 1);
  for (let row = 0; row < rows; row++) {
    for (let d = 0; d < dims; d++) if (matrix[row * dims + d] !== 0) offsets[d + 1]!++;
  }
  for (let d = 0; d < dims; d++) offsets[d + 1]! += offsets[d]!;
  const fill = offsets.slice(0, dims);
  const rowOf = new Uint32Array(nonZero);
  const values = new Float32Array(nonZero);
  for (let row = 0; row < rows; row++) {
    for (let d = 0; d < dims; d++) {
      const value = matrix[row * dims + d]!;
      if (value === 0) continue;
      const at = fill[d]!++;
      rowOf[at] = row;
      values[at] = value;
    }
  }
  return { offsets, rows: rowOf, values };
}
