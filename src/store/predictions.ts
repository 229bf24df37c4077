import type { Prediction, PredictionState } from '../core/index.ts';
import type { Db } from './open.ts';

interface PredictionRow {
  id: number;
  lesson_id: number;
  made_at: string;
  due_at: string;
  state: PredictionState;
  resolved_at: string | null;
  episode_id: number | null;
}

function fromRow(row: PredictionRow): Prediction {
  return {
    id: row.id,
    lessonId: row.lesson_id,
    madeAt: row.made_at,
    dueAt: row.due_at,
    state: row.state,
    resolvedAt: row.resolved_at,
    episodeId: row.episode_id,
  };
}

export function listPredictions(
  db: Db,
  filter: { state?: PredictionState; lessonId?: number } = {},
): Prediction[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.state) {
    where.push('state = ?');
    params.push(filter.state);
  }
  if (filter.lessonId !== undefined) {
    where.push('lesson_id = ?');
    params.push(filter.lessonId);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return (
    db.prepare(`SELECT * FROM predictions ${clause} ORDER BY id`).all(...params) as PredictionRow[]
  ).map(fromRow);
}

export function insertPrediction(db: Db, lessonId: number, madeAt: string, dueAt: string): number {
  return Number(
    db
      .prepare('INSERT INTO predictions (lesson_id, made_at, due_at) VALUES (?, ?, ?)')
      .run(lessonId, madeAt, dueAt).lastInsertRowid,
  );
}

export function resolvePrediction(
  db: Db,
  id: number,
  state: Exclude<PredictionState, 'open'>,
  at: string,
  episodeId: number | null,
): void {
  db.prepare('UPDATE predictions SET state = ?, resolved_at = ?, episode_id = ? WHERE id = ?').run(
    state,
    at,
    episodeId,
    id,
  );
}

/** Predictions of merged lessons move to the theme they became part of. */
export function movePredictions(db: Db, fromLesson: number, toLesson: number): void {
  db.prepare('UPDATE predictions SET lesson_id = ? WHERE lesson_id = ?').run(toLesson, fromLesson);
}
