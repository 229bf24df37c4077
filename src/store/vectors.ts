import type { Db } from './open.ts';

export type VectorOwner = 'episode' | 'lesson';

export interface StoredVector {
  id: number;
  space: string;
  dims: number;
  data: Buffer;
}

/** Every stored vector of one kind of owner, whatever its space (the caller checks the space). */
export function listVectors(db: Db, owner: VectorOwner): StoredVector[] {
  return db
    .prepare('SELECT owner_id AS id, space, dims, data FROM vectors WHERE owner = ?')
    .all(owner) as StoredVector[];
}

export function getVector(db: Db, owner: VectorOwner, id: number): StoredVector | undefined {
  return db
    .prepare('SELECT owner_id AS id, space, dims, data FROM vectors WHERE owner = ? AND owner_id = ?')
    .get(owner, id) as StoredVector | undefined;
}

export function putVector(
  db: Db,
  owner: VectorOwner,
  id: number,
  space: string,
  dims: number,
  data: Buffer,
): void {
  db.prepare(
    'INSERT OR REPLACE INTO vectors (owner, owner_id, space, dims, data) VALUES (?, ?, ?, ?, ?)',
  ).run(owner, id, space, dims, data);
}

export function deleteVector(db: Db, owner: VectorOwner, id: number): void {
  db.prepare('DELETE FROM vectors WHERE owner = ? AND owner_id = ?').run(owner, id);
}

/** Every vector of one kind of owner in one space, by owner id: one query, for the read paths. */
export function vectorsInSpace(db: Db, owner: VectorOwner, space: string): Map<number, StoredVector> {
  const rows = db
    .prepare('SELECT owner_id AS id, space, dims, data FROM vectors WHERE owner = ? AND space = ?')
    .all(owner, space) as StoredVector[];
  return new Map(rows.map((row) => [row.id, row]));
}
