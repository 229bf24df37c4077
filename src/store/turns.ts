import type { Db } from './open.ts';

/** Turns are kept as the reader made them; the store knows only where each stands in its file. */
export interface StoredTurn {
  line: number;
  part: number;
}

export function insertTurns(db: Db, fileId: number, turns: readonly StoredTurn[]): void {
  const insert = db.prepare('INSERT OR REPLACE INTO turns (file_id, line, part, data) VALUES (?, ?, ?, ?)');
  for (const turn of turns) insert.run(fileId, turn.line, turn.part, JSON.stringify(turn));
}

export function deleteTurnsOfFile(db: Db, fileId: number): void {
  db.prepare('DELETE FROM turns WHERE file_id = ?').run(fileId);
}

/** The turns of one file, in line order. */
export function turnsOfFile<T extends StoredTurn>(db: Db, fileId: number): T[] {
  const rows = db.prepare('SELECT data FROM turns WHERE file_id = ? ORDER BY line, part').all(fileId) as {
    data: string;
  }[];
  return rows.map((row) => JSON.parse(row.data) as T);
}
