import type { Config, Lesson, LessonKind } from '../core/index.ts';
import { createSpace, fromBlob, hashedSpace, type Space } from '../embed/index.ts';
import {
  type Db,
  type KeptSum,
  listVectors,
  oldestOpenPrediction,
  readLessonSums,
  type SurpriseRow,
  sourcesReader,
  surprisesByIds,
  surprisesSince,
  waitingSurprises,
} from '../store/index.ts';
import { byTime, type NightEpisode, UNREAD_VECTOR } from './night.ts';
import { correctionWords } from './own-words.ts';

/** What a surprise is embedded from: a correction from the person's own words, not what they pasted (`correctionWords`). */
export function embeddingText(episode: {
  kind: string;
  title: string;
  text: string;
  said: string | null;
}): string {
  if (episode.kind === 'correction') return correctionWords(episode);
  if (episode.title && episode.text && episode.title !== episode.text)
    return `${episode.title}\n${episode.text}`;
  return episode.text || episode.title;
}

export interface EmbedPassResult {
  space: Space;
  /** Set when the configured model could not be reached and tonight used the hashed space. */
  fallback: string | null;
  /** Every episode tonight works on, by id (see `embedIn`). */
  episodes: Map<number, NightEpisode>;
  /**
   * Each lesson's sources tonight holds, oldest first: all of them when its sum is added up again tonight, else
   * (its sum kept in `sums`) the first and the latest, which are all a night reads of them.
   */
  sources: Map<number, NightEpisode[]>;
  /** The kept sums of tonight's space that still stand for their lessons' sources. */
  sums: Map<number, KeptSum>;
  /** Vectors computed tonight, to be written with the rest of the night. */
  fresh: { owner: 'episode' | 'lesson'; id: number; vec: Float32Array }[];
  corrupt: number;
  lessonTexts: Map<number, Float32Array>;
  /** The lessons with a vector stored in tonight's space. */
  lessonVectors: Set<number>;
  /** The dimensions of tonight's vectors (0 when there are none yet). */
  dims: number;
}

/**
 * Pass 0: everything tonight compares must have a vector in tonight's space. Episodes whose vector is
 * missing, corrupt or from another space are embedded again; an unreachable model server makes tonight
 * use the hashed space instead, and says so, rather than fail the night.
 */
export async function embedPass(
  db: Db,
  config: Config,
  lessons: readonly Lesson[],
): Promise<EmbedPassResult> {
  const configured = createSpace(config.embed, config.params);
  try {
    return await embedIn(db, configured, lessons, null);
  } catch (error) {
    if (configured.kind === 'hashed') throw error;
    const reason = `the ${configured.name} space was unreachable (${(error as Error).message}); tonight used the hashed space`;
    return embedIn(db, hashedSpace(config.params), lessons, reason);
  }
}

/**
 * What a night reads, and only that, so a night costs what is new rather than all that was ever kept: the
 * surprises waiting for a lesson; those that happened since the oldest open prediction (what verifying reads);
 * every source of a lesson whose kept sum is missing, stale or of another space (all of them, the first night
 * in a space); and the first and latest source of every other lesson. Drops from `sums` what no longer stands.
 */
function rowsOfTonight(
  db: Db,
  lessons: readonly Lesson[],
  sums: Map<number, KeptSum>,
): { rows: Map<number, SurpriseRow>; ends: Map<number, SurpriseRow>; sourceIds: Map<number, number[]> } {
  const rows = new Map<number, SurpriseRow>();
  const take = (list: SurpriseRow[]) => {
    for (const row of list) rows.set(row.id, row);
  };
  take(waitingSurprises(db));
  const oldest = oldestOpenPrediction(db);
  if (oldest !== null) take(surprisesSince(db, oldest));
  // The first and latest source of each lesson whose sum is kept, in one read, without their vectors: what is
  // read of them is their words, time and tool. One that happened since the oldest open prediction is read above.
  const ends = new Map<number, SurpriseRow>();
  const named = [...sums.values()].flatMap((kept) => [kept.firstSource, kept.latestSource]);
  for (const row of surprisesByIds(
    db,
    named.filter((id): id is number => id !== null),
  )) {
    ends.set(row.id, row);
  }
  const allSources = sourcesReader(db);
  const sourceIds = new Map<number, number[]>();
  for (const lesson of lessons) {
    const kept = sums.get(lesson.id);
    const first = kept?.firstSource == null ? undefined : ends.get(kept.firstSource);
    const latest = kept?.latestSource == null ? undefined : ends.get(kept.latestSource);
    const standing =
      kept !== undefined &&
      (kept.state.count === 0 || (first?.lesson_id === lesson.id && latest?.lesson_id === lesson.id));
    if (standing) {
      const own = [first, latest].filter((row): row is SurpriseRow => row !== undefined);
      sourceIds.set(lesson.id, [...new Set(own.map((row) => row.id))]);
      continue;
    }
    // No sum kept, or one whose sources are not where it says: every source is read and added up again.
    sums.delete(lesson.id);
    const list = allSources(lesson.id);
    take(list);
    sourceIds.set(
      lesson.id,
      list.map((row) => row.id),
    );
  }
  return { rows, ends, sourceIds };
}

/** Pass 0 in one space: tonight's episodes, each with a vector in it, and the lessons' kept sums. */
async function embedIn(
  db: Db,
  space: Space,
  lessons: readonly Lesson[],
  fallback: string | null,
): Promise<EmbedPassResult> {
  const sums = readLessonSums(db, space.name);
  const { rows, ends, sourceIds } = rowsOfTonight(db, lessons, sums);
  const result: EmbedPassResult = {
    space,
    fallback,
    episodes: new Map(),
    sources: new Map(),
    sums,
    fresh: [],
    corrupt: 0,
    lessonTexts: new Map(),
    lessonVectors: new Set(),
    dims: 0,
  };
  const missing: SurpriseRow[] = [];
  for (const row of rows.values()) {
    const inSpace = row.vector != null && row.vector_space === space.name;
    const vec = inSpace ? fromBlob(row.vector!, row.vector_dims!) : null;
    if (inSpace && !vec) result.corrupt++;
    if (vec) result.episodes.set(row.id, episodeOf(row, vec, false));
    else missing.push(row);
  }
  const vectors = await space.embed(missing.map(embeddingText));
  missing.forEach((row, index) => {
    const vec = vectors[index]!;
    result.episodes.set(row.id, episodeOf(row, vec, true));
    result.fresh.push({ owner: 'episode', id: row.id, vec });
  });
  for (const row of ends.values()) {
    if (!result.episodes.has(row.id)) result.episodes.set(row.id, episodeOf(row, UNREAD_VECTOR, false));
  }
  for (const [lessonId, ids] of sourceIds) {
    result.sources.set(lessonId, ids.map((id) => result.episodes.get(id)!).sort(byTime));
  }
  const received = lessons.filter((lesson) => lesson.origin !== 'self');
  const storedLessons = new Map<number, Float32Array>();
  for (const vector of listVectors(db, 'lesson')) {
    if (vector.space !== space.name) continue;
    const vec = fromBlob(vector.data, vector.dims);
    if (vec) storedLessons.set(vector.id, vec);
  }
  result.lessonVectors = new Set(storedLessons.keys());
  const lessonsMissing = received.filter((lesson) => !storedLessons.has(lesson.id));
  const lessonVectors = await space.embed(lessonsMissing.map((lesson) => lesson.text));
  lessonsMissing.forEach((lesson, index) => {
    const vec = lessonVectors[index]!;
    storedLessons.set(lesson.id, vec);
    result.fresh.push({ owner: 'lesson', id: lesson.id, vec });
  });
  for (const lesson of received) {
    const vec = storedLessons.get(lesson.id);
    if (vec) result.lessonTexts.set(lesson.id, vec);
  }
  // Tonight's vectors: those read or embedded (the first and latest sources of kept sums come after them, unread).
  result.dims =
    result.episodes.values().next().value?.vec.length ||
    sums.values().next().value?.state.sum.length ||
    result.lessonTexts.values().next().value?.length ||
    0;
  return result;
}

function episodeOf(row: SurpriseRow, vec: Float32Array, fresh: boolean): NightEpisode {
  let detail: Record<string, unknown> = {};
  try {
    detail = JSON.parse(row.detail) as Record<string, unknown>;
  } catch {
    // an unreadable detail costs only its extras
  }
  return {
    id: row.id,
    kind: row.kind as LessonKind,
    project: row.project,
    tool: typeof detail['tool'] === 'string' ? (detail['tool'] as string) : null,
    happenedAt: row.happened_at,
    title: row.title,
    text: row.text,
    said: row.said,
    agentBefore: row.agent_before,
    detail,
    lessonId: row.lesson_id,
    vec,
    fresh,
  };
}
