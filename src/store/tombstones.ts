import type { Db } from './open.ts';

export interface Tombstone {
  hash: string;
  reason: string;
  lessonId: number | null;
  createdAt: string;
}

/** Remembers a lesson hash that must never be written again (a veto, a revocation, a refusal). */
export function addTombstone(
  db: Db,
  hash: string,
  reason: string,
  lessonId: number | null,
  at: string,
): void {
  db.prepare(
    'INSERT OR IGNORE INTO tombstones (hash, reason, lesson_id, created_at) VALUES (?, ?, ?, ?)',
  ).run(hash, reason, lessonId, at);
}

export function getTombstone(db: Db, hash: string): Tombstone | undefined {
  return db
    .prepare(
      'SELECT hash, reason, lesson_id AS lessonId, created_at AS createdAt FROM tombstones WHERE hash = ?',
    )
    .get(hash) as Tombstone | undefined;
}

export function tombstoneHashes(db: Db): Set<string> {
  return new Set(
    (db.prepare('SELECT hash FROM tombstones').all() as { hash: string }[]).map((row) => row.hash),
  );
}

/** Every tombstone's hash, reason and lesson, keyed by hash. */
export function listTombstones(db: Db): Map<string, { reason: string; lessonId: number | null }> {
  const rows = db.prepare('SELECT hash, reason, lesson_id AS lessonId FROM tombstones').all() as {
    hash: string;
    reason: string;
    lessonId: number | null;
  }[];
  return new Map(rows.map((row) => [row.hash, { reason: row.reason, lessonId: row.lessonId }]));
}
