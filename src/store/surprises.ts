import type { EpisodeKind } from '../core/index.ts';
import type { Db } from './open.ts';

/**
 * A surprise (an error, a correction or a stated surprise) as a night reads it: its columns as stored, and its
 * vector beside them when the read asks for it (one statement, not a lookup per episode).
 */
export interface SurpriseRow {
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
  vector_space?: string | null;
  vector_dims?: number | null;
  vector?: Buffer | null;
}

const EPISODE =
  'id, kind, project, happened_at, title, text, said, agent_before, detail, lesson_id, archived';
const COLUMNS = `${EPISODE}, v.space AS vector_space, v.dims AS vector_dims, v.data AS vector`;
const FROM = (index = '') =>
  `FROM episodes ${index} LEFT JOIN vectors v ON v.owner = 'episode' AND v.owner_id = episodes.id`;
const SURPRISES = "kind IN ('error', 'correction', 'surprise')";

/** When the oldest prediction still open was made, or null when none is open. */
export function oldestOpenPrediction(db: Db): string | null {
  const row = db.prepare("SELECT MIN(made_at) AS at FROM predictions WHERE state = 'open'").get() as {
    at: string | null;
  };
  return row.at;
}

/** The live surprises in no lesson and not archived, with their vectors: those waiting for a lesson. */
export function waitingSurprises(db: Db): SurpriseRow[] {
  // The waiting surprises are few beside every episode in no lesson (sessions, the machine's failures).
  return db
    .prepare(
      `SELECT ${COLUMNS} ${FROM('INDEXED BY episodes_waiting')}
       WHERE lesson_id IS NULL AND archived = 0 AND live = 1 AND ${SURPRISES}`,
    )
    .all() as SurpriseRow[];
}

/** The live surprises that happened after `at`, in a lesson or not archived, with their vectors. */
export function surprisesSince(db: Db, at: string): SurpriseRow[] {
  return db
    .prepare(
      `SELECT ${COLUMNS} ${FROM()}
       WHERE ${SURPRISES} AND happened_at > ? AND live = 1 AND (lesson_id IS NOT NULL OR archived = 0)`,
    )
    .all(at) as SurpriseRow[];
}

/** The live surprises among these ids, in one read, without their vectors. */
export function surprisesByIds(db: Db, ids: readonly number[]): SurpriseRow[] {
  return db
    .prepare(
      `SELECT ${EPISODE} FROM episodes
       WHERE id IN (SELECT value FROM json_each(?)) AND live = 1 AND ${SURPRISES}`,
    )
    .all(JSON.stringify(ids)) as SurpriseRow[];
}

/** Reads a lesson's live sources with their vectors; the statement is prepared once for every lesson asked about. */
export function sourcesReader(db: Db): (lessonId: number) => SurpriseRow[] {
  const statement = db.prepare(
    `SELECT ${COLUMNS} ${FROM()} WHERE lesson_id = ? AND live = 1 AND ${SURPRISES}`,
  );
  return (lessonId) => statement.all(lessonId) as SurpriseRow[];
}
