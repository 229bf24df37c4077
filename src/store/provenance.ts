import type { LessonKind } from '../core/index.ts';
import type { Db } from './open.ts';

export type SupportWay = 'confirm' | 'corroborate';

/**
 * Notes that another memory confirmed or corroborated a lesson held here. Returns true when that memory had
 * not supported the lesson before in any way: a memory raises a lesson once, however often it says so.
 */
export function addSupport(
  db: Db,
  lessonId: number,
  origin: string,
  way: SupportWay,
  hash: string,
  at: string,
): boolean {
  const before = db
    .prepare('SELECT 1 FROM lesson_support WHERE lesson_id = ? AND origin = ?')
    .get(lessonId, origin);
  db.prepare(
    'INSERT OR IGNORE INTO lesson_support (lesson_id, origin, way, hash, at) VALUES (?, ?, ?, ?, ?)',
  ).run(lessonId, origin, way, hash, at);
  return before === undefined;
}

/** Where a lesson came from, and which other memories confirmed or corroborated it. */
export interface Provenance {
  /** 'self', or the origin of the memory it was received from. */
  origin: string;
  confirmedBy: string[];
  corroboratedBy: string[];
}

export function provenanceOf(db: Db, lessonId: number): Provenance {
  const lesson = db.prepare('SELECT origin FROM lessons WHERE id = ?').get(lessonId) as
    | { origin: string }
    | undefined;
  const rows = db
    .prepare('SELECT origin, way FROM lesson_support WHERE lesson_id = ? ORDER BY at, origin')
    .all(lessonId) as { origin: string; way: SupportWay }[];
  return {
    origin: lesson?.origin ?? 'self',
    confirmedBy: rows.filter((row) => row.way === 'confirm').map((row) => row.origin),
    corroboratedBy: rows.filter((row) => row.way === 'corroborate').map((row) => row.origin),
  };
}

/** A lesson as received from another memory, before it has an id here. */
export interface ReceivedLesson {
  hash: string;
  kind: LessonKind;
  text: string;
  strength: number;
  origin: string;
  /** When its origin last changed it. */
  happenedAt: string;
  at: string;
  rules: string;
}

/**
 * Stores a received lesson. Its review state is left to the column default (`pending_review`): only a
 * person approves what another memory sent. It has no project here and has absorbed no surprise of this memory.
 */
export function insertReceivedLesson(db: Db, lesson: ReceivedLesson): number {
  return Number(
    db
      .prepare(
        `INSERT INTO lessons (hash, kind, text, seen, strength, project, origin, happened_at, created_at,
           updated_at, touched_at, decayed_at, rules)
         VALUES (@hash, @kind, @text, 0, @strength, NULL, @origin, @happenedAt, @at, @at, @at, @at, @rules)`,
      )
      .run(lesson).lastInsertRowid,
  );
}

/**
 * Adds to a lesson's strength: another memory confirmed or corroborated it. Evidence that it still holds
 * brings an archived lesson back, as a surprise joining it does.
 */
export function raiseLesson(db: Db, lessonId: number, by: number, at: string): void {
  db.prepare('UPDATE lessons SET strength = strength + ?, updated_at = ?, archived = 0 WHERE id = ?').run(
    by,
    at,
    lessonId,
  );
}

/**
 * The received lessons whose prediction came true here, with the episode that met it and that episode's
 * project: what a confirmation record says, and whether consent covers saying it.
 */
export function confirmedReceived(db: Db): {
  lessonId: number;
  hash: string;
  kind: LessonKind;
  origin: string;
  confirmedAt: string;
  project: string | null;
}[] {
  return db
    .prepare(
      `SELECT l.id AS lessonId, l.hash, l.kind, l.origin, MIN(p.resolved_at) AS confirmedAt, e.project
       FROM predictions p
       JOIN lessons l ON l.id = p.lesson_id
       LEFT JOIN episodes e ON e.id = p.episode_id
       WHERE p.state = 'confirmed' AND l.origin <> 'self' AND l.vetoed_at IS NULL
       GROUP BY l.id, e.project
       ORDER BY l.id, confirmedAt`,
    )
    .all() as {
    lessonId: number;
    hash: string;
    kind: LessonKind;
    origin: string;
    confirmedAt: string;
    project: string | null;
  }[];
}
