import type { Db } from './open.ts';

/** Turns are kept as the reader made them; the store knows only where each stands in its file. */
export interface StoredTurn {
  line: number;
  part: number;
}

/**
 * Keeps the turns of one read of a file, in reading order, as one chunk. A read starts where the last one stopped
 * (or the file's turns were deleted first), so its lines all come after those kept before.
 */
export function insertTurns(db: Db, fileId: number, turns: readonly StoredTurn[]): void {
  const first = turns[0];
  if (first !== undefined) insertTurnsJson(db, fileId, first.line, JSON.stringify(turns));
}

/** Like `insertTurns`, for turns already written as a JSON array (not empty) whose first turn is on `firstLine`. */
export function insertTurnsJson(db: Db, fileId: number, firstLine: number, json: string): void {
  db.prepare('INSERT OR REPLACE INTO turns (file_id, first_line, data) VALUES (?, ?, ?)').run(
    fileId,
    firstLine,
    json,
  );
}

export function deleteTurnsOfFile(db: Db, fileId: number): void {
  db.prepare('DELETE FROM turns WHERE file_id = ?').run(fileId);
}

/** The turns of one file, in line order. */
export function turnsOfFile<T extends StoredTurn>(db: Db, fileId: number): T[] {
  const rows = db.prepare('SELECT data FROM turns WHERE file_id = ? ORDER BY first_line').all(fileId) as {
    data: string;
  }[];
  return rows.length === 1
    ? (JSON.parse(rows[0]!.data) as T[])
    : rows.flatMap((row) => JSON.parse(row.data) as T[]);
}
