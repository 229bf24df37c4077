import type { Config, EpisodeKind, LessonKind } from '../core/index.ts';
import { createSpace, fromBlob, hashedSpace, type Space } from '../embed/index.ts';
import { type Db, listVectors } from '../store/index.ts';
import type { NightEpisode } from './night.ts';

const CONSOLIDATED = new Set<EpisodeKind>(['error', 'correction', 'surprise']);

interface EpisodeRow {
  id: number;
  kind: EpisodeKind;
  project: string | null;
  happened_at: string;
  title: string;
  text: string;
  said: string | null;
  agent_before: string | null;
  detail: string;
  lesson_id: number | null;
  archived: number;
}

/** What a surprise is embedded from: a correction from the person's words alone. */
export function embeddingText(episode: {
  kind: string;
  title: string;
  text: string;
  said: string | null;
}): string {
  if (episode.kind === 'correction') return episode.said ?? episode.text;
  if (episode.title && episode.text && episode.title !== episode.text)
    return `${episode.title}\n${episode.text}`;
  return episode.text || episode.title;
}

export interface EmbedPassResult {
  space: Space;
  /** Set when the configured model could not be reached and tonight used the hashed space. */
  fallback: string | null;
  episodes: Map<number, NightEpisode>;
  /** Vectors computed tonight, to be written with the rest of the night. */
  fresh: { owner: 'episode' | 'lesson'; id: number; vec: Float32Array }[];
  corrupt: number;
  lessonTexts: Map<number, Float32Array>;
}

/**
 * Pass 0: everything tonight compares must have a vector in tonight's space. Episodes whose vector is
 * missing, corrupt or from another space are embedded again; an unreachable model server makes tonight
 * use the hashed space instead, and says so, rather than fail the night.
 */
export async function embedPass(
  db: Db,
  config: Config,
  receivedLessons: { id: number; text: string }[],
): Promise<EmbedPassResult> {
  const configured = createSpace(config.embed, config.params);
  try {
    return await embedIn(db, configured, receivedLessons, null);
  } catch (error) {
    if (configured.kind === 'hashed') throw error;
    const reason = `the ${configured.name} space was unreachable (${(error as Error).message}); tonight used the hashed space`;
    return embedIn(db, hashedSpace(config.params), receivedLessons, reason);
  }
}

async function embedIn(
  db: Db,
  space: Space,
  receivedLessons: { id: number; text: string }[],
  fallback: string | null,
): Promise<EmbedPassResult> {
  const rows = db
    .prepare(
      `SELECT id, kind, project, happened_at, title, text, said, agent_before, detail, lesson_id, archived
       FROM episodes WHERE live = 1 AND kind IN ('error', 'correction', 'surprise')`,
    )
    .all() as EpisodeRow[];
  const stored = new Map<number, Float32Array>();
  let corrupt = 0;
  for (const vector of listVectors(db, 'episode')) {
    if (vector.space !== space.name) continue;
    const vec = fromBlob(vector.data, vector.dims);
    if (vec) stored.set(vector.id, vec);
    else corrupt++;
  }
  const result: EmbedPassResult = {
    space,
    fallback,
    episodes: new Map(),
    fresh: [],
    corrupt,
    lessonTexts: new Map(),
  };
  const missing: EpisodeRow[] = [];
  const episodeOf = (row: EpisodeRow, vec: Float32Array, fresh: boolean): NightEpisode => {
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
  };
  for (const row of rows) {
    if (!CONSOLIDATED.has(row.kind)) continue;
    // An archived episode not already in a lesson takes no part in tonight's work.
    if (row.archived === 1 && row.lesson_id === null) continue;
    const vec = stored.get(row.id);
    if (vec) result.episodes.set(row.id, episodeOf(row, vec, false));
    else missing.push(row);
  }
  const vectors = await space.embed(missing.map(embeddingText));
  missing.forEach((row, index) => {
    const vec = vectors[index]!;
    result.episodes.set(row.id, episodeOf(row, vec, true));
    result.fresh.push({ owner: 'episode', id: row.id, vec });
  });
  const storedLessons = new Map<number, Float32Array>();
  for (const vector of listVectors(db, 'lesson')) {
    if (vector.space !== space.name) continue;
    const vec = fromBlob(vector.data, vector.dims);
    if (vec) storedLessons.set(vector.id, vec);
  }
  const lessonsMissing = receivedLessons.filter((lesson) => !storedLessons.has(lesson.id));
  const lessonVectors = await space.embed(lessonsMissing.map((lesson) => lesson.text));
  lessonsMissing.forEach((lesson, index) => {
    const vec = lessonVectors[index]!;
    storedLessons.set(lesson.id, vec);
    result.fresh.push({ owner: 'lesson', id: lesson.id, vec });
  });
  for (const lesson of receivedLessons) {
    const vec = storedLessons.get(lesson.id);
    if (vec) result.lessonTexts.set(lesson.id, vec);
  }
  return result;
}
