import type { Lesson, LessonKind, ReviewState } from '../core/index.ts';
import type { Db } from './open.ts';

/** A row of the lessons table as SQLite returns it. */
export interface LessonRow {
  id: number;
  hash: string;
  kind: LessonKind;
  text: string;
  seen: number;
  strength: number;
  project: string | null;
  origin: string;
  review: ReviewState;
  happened_at: string;
  created_at: string;
  updated_at: string;
  touched_at: string;
  decayed_at: string;
  archived: number;
  merged_into: number | null;
  vetoed_at: string | null;
}

/** A lessons row as the Lesson every reader takes. */
export function lessonFromRow(row: LessonRow): Lesson {
  return {
    id: row.id,
    hash: row.hash,
    kind: row.kind,
    text: row.text,
    seen: row.seen,
    strength: row.strength,
    project: row.project,
    origin: row.origin,
    review: row.review,
    happenedAt: row.happened_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    touchedAt: row.touched_at,
    decayedAt: row.decayed_at,
    archived: row.archived === 1,
    mergedInto: row.merged_into,
    vetoedAt: row.vetoed_at,
  };
}

export function listLessons(db: Db): Lesson[] {
  return (db.prepare('SELECT * FROM lessons ORDER BY id').all() as LessonRow[]).map(lessonFromRow);
}

export function getLesson(db: Db, id: number): Lesson | undefined {
  const row = db.prepare('SELECT * FROM lessons WHERE id = ?').get(id) as LessonRow | undefined;
  return row && lessonFromRow(row);
}

export function findLessonsByHash(db: Db, hashPrefix: string): Lesson[] {
  return (
    db.prepare("SELECT * FROM lessons WHERE hash LIKE ? || '%' ORDER BY id").all(hashPrefix) as LessonRow[]
  ).map(lessonFromRow);
}

export type NewLesson = Omit<Lesson, 'id' | 'archived' | 'mergedInto' | 'vetoedAt'> & { rules: string };

export function insertLesson(db: Db, lesson: NewLesson): number {
  return Number(
    db
      .prepare(
        `INSERT INTO lessons (hash, kind, text, seen, strength, project, origin, review, happened_at, created_at,
           updated_at, touched_at, decayed_at, rules)
         VALUES (@hash, @kind, @text, @seen, @strength, @project, @origin, @review, @happenedAt, @createdAt,
           @updatedAt, @touchedAt, @decayedAt, @rules)`,
      )
      .run(lesson).lastInsertRowid,
  );
}

/** Writes back the fields sleep and recall change. */
export function saveLesson(db: Db, lesson: Lesson): void {
  db.prepare(
    `UPDATE lessons SET hash = @hash, text = @text, seen = @seen, strength = @strength, updated_at = @updatedAt,
       touched_at = @touchedAt, decayed_at = @decayedAt, archived = @archived, merged_into = @mergedInto,
       vetoed_at = @vetoedAt, review = @review
     WHERE id = @id`,
  ).run({ ...lesson, archived: lesson.archived ? 1 : 0 });
}

/** The episodes a lesson was learned from, oldest first. */
export function sourceIdsOf(db: Db, lessonId: number): number[] {
  return (
    db.prepare('SELECT id FROM episodes WHERE lesson_id = ? ORDER BY happened_at, id').all(lessonId) as {
      id: number;
    }[]
  ).map((row) => row.id);
}

export function assignEpisode(db: Db, episodeId: number, lessonId: number): void {
  db.prepare('UPDATE episodes SET lesson_id = ? WHERE id = ?').run(lessonId, episodeId);
}

/** A merge: every live surprise of one lesson becomes another's source. */
export function moveSources(db: Db, fromLesson: number, toLesson: number): void {
  db.prepare(
    `UPDATE episodes SET lesson_id = ? WHERE lesson_id = ? AND live = 1 AND kind IN ('error', 'correction', 'surprise')`,
  ).run(toLesson, fromLesson);
}

/** A lesson's oldest live sources, at most `limit`: what a theme quotes. */
export function oldestSources(
  db: Db,
  lessonId: number,
  limit: number,
): { id: number; happenedAt: string; said: string | null; text: string }[] {
  return db
    .prepare(
      `SELECT id, happened_at AS happenedAt, said, text FROM episodes
       WHERE lesson_id = ? AND live = 1 AND kind IN ('error', 'correction', 'surprise')
       ORDER BY happened_at, id LIMIT ?`,
    )
    .all(lessonId, limit) as { id: number; happenedAt: string; said: string | null; text: string }[];
}

/**
 * How many of a lesson's sources there are, and how many followed a reply that offered the next step back to the
 * person: the hand-back the Stop reminder answers. One that followed a question the agent asked, or a reply waiting
 * for what only the person has, says nothing of offers ("What modules would you prefer?" — "did you gather the
 * requirements with me?").
 */
export function offerShare(db: Db, lessonId: number): { sources: number; afterOffer: number } {
  return db
    .prepare(
      `SELECT COUNT(*) AS sources,
         COALESCE(SUM(CASE WHEN json_extract(detail, '$.afterHandback') = 'offer' THEN 1 ELSE 0 END), 0) AS afterOffer
       FROM episodes WHERE lesson_id = ?`,
    )
    .get(lessonId) as { sources: number; afterOffer: number };
}
