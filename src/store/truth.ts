import type { Lesson } from '../core/index.ts';
import { type LessonRow, lessonFromRow } from './lessons.ts';
import type { Db } from './open.ts';

/** The reads the truth projection makes: lessons by scope, prediction tallies, and the dates of past decisions. */

const COLUMNS = `id, hash, kind, text, seen, strength, project, origin, review, happened_at, created_at, updated_at,
  touched_at, decayed_at, archived, merged_into, vetoed_at`;

/**
 * Lessons that may reach an agent in a scope: approved, not vetoed, not merged; personal or of `project`
 * (every project's when `project` is undefined). Archived ones come too: retention is decided later.
 * Reads the `lessons_reach` index.
 */
export function listReachableLessons(db: Db, project: string | null | undefined): Lesson[] {
  const rows =
    project === undefined
      ? db
          .prepare(
            `SELECT ${COLUMNS} FROM lessons
             WHERE merged_into IS NULL AND vetoed_at IS NULL AND review = 'approved'`,
          )
          .all()
      : db
          .prepare(
            `SELECT ${COLUMNS} FROM lessons
             WHERE merged_into IS NULL AND vetoed_at IS NULL AND review = 'approved'
               AND (project IS NULL OR project = ?)`,
          )
          .all(project);
  return (rows as LessonRow[]).map(lessonFromRow);
}

/** Lessons by id, in id order. */
export function listLessonsById(db: Db, ids: readonly number[]): Lesson[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${COLUMNS} FROM lessons WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`)
    .all(JSON.stringify(ids)) as LessonRow[];
  return rows.map(lessonFromRow);
}

/** Every lesson Remem had learned by `at` (all when `at` is undefined), in id order. */
export function listLessonsKnownAt(db: Db, at: string | undefined): Lesson[] {
  const rows =
    at === undefined
      ? db.prepare(`SELECT ${COLUMNS} FROM lessons ORDER BY id`).all()
      : db.prepare(`SELECT ${COLUMNS} FROM lessons WHERE created_at <= ? ORDER BY id`).all(at);
  return (rows as LessonRow[]).map(lessonFromRow);
}

export interface PredictionTally {
  lessonId: number;
  confirmed: number;
  failed: number;
  open: number;
  lastConfirmedAt: string | null;
  lastFailedAt: string | null;
}

/** Per lesson, its predictions as they stood at `at`: made by then, resolved by then or still open. */
export function predictionTallies(db: Db, at: string): Map<number, PredictionTally> {
  const rows = db
    .prepare(
      `SELECT lesson_id AS lessonId,
         COALESCE(SUM(state = 'confirmed' AND resolved_at <= @at), 0) AS confirmed,
         COALESCE(SUM(state = 'failed' AND resolved_at <= @at), 0) AS failed,
         COALESCE(SUM(state = 'open' OR resolved_at > @at), 0) AS open,
         MAX(CASE WHEN state = 'confirmed' AND resolved_at <= @at THEN resolved_at END) AS lastConfirmedAt,
         MAX(CASE WHEN state = 'failed' AND resolved_at <= @at THEN resolved_at END) AS lastFailedAt
       FROM predictions WHERE made_at <= @at GROUP BY lesson_id`,
    )
    .all({ at }) as PredictionTally[];
  return new Map(rows.map((row) => [row.lessonId, row]));
}

/** Per lesson, its predictions as they stand now (migration 11 keeps them): `predictionTallies` with no bound. */
export function currentPredictionTallies(db: Db): Map<number, PredictionTally> {
  const rows = db
    .prepare(
      `SELECT lesson_id AS lessonId, confirmed, failed, open, last_confirmed_at AS lastConfirmedAt,
         last_failed_at AS lastFailedAt
       FROM prediction_tallies`,
    )
    .all() as PredictionTally[];
  return new Map(rows.map((row) => [row.lessonId, row]));
}

/**
 * When the latest source of each lesson happened, among episodes Remem had recorded by `at`: per lesson, its
 * sources read from the latest back to the first recorded by then, which is nearly always the latest.
 */
export function lastSeenOf(db: Db, lessonIds: readonly number[], at: string): Map<number, string> {
  const latest = db.prepare(
    `SELECT happened_at AS seen FROM episodes INDEXED BY episodes_lesson_seen
     WHERE lesson_id = ? AND happened_at <= ? AND recorded_at <= ?
     ORDER BY happened_at DESC LIMIT 1`,
  );
  const seen = new Map<number, string>();
  for (const id of lessonIds) {
    const row = latest.get(id, at, at) as { seen: string } | undefined;
    if (row) seen.set(id, row.seen);
  }
  return seen;
}

/**
 * When each session began, oldest first: the sessions that left an episode (a transcript's session record, or an
 * event's session) in the project, or in any project for the person's own lessons. What a prediction's window
 * counts.
 */
export function sessionStarts(db: Db, project: string | null): string[] {
  const where = project === null ? '' : 'WHERE project = ?';
  const rows = db
    .prepare(`SELECT MIN(happened_at) AS at FROM episodes ${where} GROUP BY agent, session`)
    .all(...(project === null ? [] : [project])) as { at: string }[];
  return rows.map((row) => row.at).sort();
}

/**
 * The project's latest `sessions` sessions of at least `minPrompts` prompts, newest first (every project's when
 * `project` is null): how many corrections each left and when it began (its first episode). The sessions a
 * transcript recorded (their session episode), each with the corrections among its episodes. Reads the
 * `episodes_project_sessions` (or, for every project, `episodes_kind`) and `episodes_session` indexes: a few rows,
 * however many episodes the store holds.
 */
export function latestSessions(
  db: Db,
  project: string | null,
  sessions: number,
  minPrompts = 0,
): { corrections: number; startedAt: string }[] {
  if (sessions <= 0) return [];
  const where = project === null ? '' : 'AND s.project = ?';
  return db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM episodes c INDEXED BY episodes_session
                WHERE c.agent = s.agent AND c.session = s.session AND c.kind = 'correction') AS corrections,
              (SELECT MIN(f.happened_at) FROM episodes f INDEXED BY episodes_session
                WHERE f.agent = s.agent AND f.session = s.session) AS startedAt
       FROM episodes s WHERE s.kind = 'session' ${where}
         AND coalesce(json_extract(s.detail, '$.prompts'), 0) >= ?
       ORDER BY s.happened_at DESC LIMIT ?`,
    )
    .all(...(project === null ? [minPrompts, sessions] : [project, minPrompts, sessions])) as {
    corrections: number;
    startedAt: string;
  }[];
}

/**
 * The live correction lessons never confirmed that `project` sees (its own and the person's own; every project's when
 * it is null) whose corrections, more than one, were all made in one session. The lessons lead (`CROSS JOIN`), each
 * reading its own sources by `episodes_lesson`, not every correction the store holds.
 */
export function saidInOneSession(db: Db, project: string | null): number[] {
  return (
    db
      .prepare(
        `SELECT l.id AS id
         FROM lessons l CROSS JOIN episodes e ON e.lesson_id = l.id AND e.kind = 'correction'
         WHERE l.kind = 'correction' AND l.strength <= 1 AND l.archived = 0
           AND l.merged_into IS NULL AND l.vetoed_at IS NULL
           ${project === null ? '' : 'AND (l.project IS NULL OR l.project = ?)'}
         GROUP BY l.id HAVING COUNT(*) > 1 AND COUNT(DISTINCT e.session) = 1`,
      )
      .all(...(project === null ? [] : [project])) as { id: number }[]
  ).map((row) => row.id);
}

/** A past decision that changed a lesson's review state or retention, from the audit log. */
export interface LessonEvent {
  lessonId: number;
  action: 'approve' | 'reject' | 'archive' | 'join';
  at: string;
}

/** Every approve, reject, archive and join in the audit log, oldest first: what "as of" replays. */
export function listLessonEvents(db: Db): LessonEvent[] {
  return db
    .prepare(
      `SELECT lesson_id AS lessonId, action, at FROM audit
       WHERE lesson_id IS NOT NULL AND action IN ('approve', 'reject', 'archive', 'join') ORDER BY at, id`,
    )
    .all() as LessonEvent[];
}

/** The lessons waiting for a person's review (not vetoed, not merged), oldest first. */
export function listPendingLessons(db: Db): Lesson[] {
  return (
    db
      .prepare(
        `SELECT ${COLUMNS} FROM lessons
         WHERE review = 'pending_review' AND vetoed_at IS NULL AND merged_into IS NULL ORDER BY id`,
      )
      .all() as LessonRow[]
  ).map(lessonFromRow);
}
