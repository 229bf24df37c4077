import type { Db } from './open.ts';

export type StoredRecordKind = 'lesson' | 'confirm' | 'revoke';

/** A signed record as held: the line exactly as its origin signed it, with what it is about. */
export interface StoredRecord {
  kind: StoredRecordKind;
  /** The lesson hash the record is about: its `hash`, `confirm` or `revoke`. */
  hash: string;
  origin: string;
  updated: string;
  line: string;
  receivedAt: string;
}

const columns = 'kind, hash, origin, updated, line, received_at AS receivedAt';

/** Whether `a` is a later time than `b`; equal times are ordered by line so every holder keeps the same one. */
function isLater(a: { updated: string; line: string }, b: { updated: string; line: string }): boolean {
  const x = Date.parse(a.updated);
  const y = Date.parse(b.updated);
  if (!Number.isNaN(x) && !Number.isNaN(y) && x !== y) return x > y;
  if (a.updated !== b.updated) return a.updated > b.updated;
  return a.line > b.line;
}

/**
 * Keeps a record unless a newer one of the same kind, hash and origin is held (`replace`: whatever is held;
 * for this memory's own records). Returns what happened: 'new' (nothing was held), 'newer' (it replaced
 * another line), 'known' (the same line, or an older one).
 */
export function putRecord(
  db: Db,
  record: StoredRecord,
  options: { replace?: boolean } = {},
): 'new' | 'newer' | 'known' {
  const held = getRecord(db, record.kind, record.hash, record.origin);
  if (held?.line === record.line) return 'known';
  if (held !== undefined && options.replace !== true && !isLater(record, held)) return 'known';
  db.prepare(
    `INSERT OR REPLACE INTO records (kind, hash, origin, updated, line, received_at)
     VALUES (@kind, @hash, @origin, @updated, @line, @receivedAt)`,
  ).run(record);
  return held === undefined ? 'new' : 'newer';
}

export function getRecord(
  db: Db,
  kind: StoredRecordKind,
  hash: string,
  origin: string,
): StoredRecord | undefined {
  return db
    .prepare(`SELECT ${columns} FROM records WHERE kind = ? AND hash = ? AND origin = ?`)
    .get(kind, hash, origin) as StoredRecord | undefined;
}

export function deleteRecord(db: Db, kind: StoredRecordKind, hash: string, origin: string): void {
  db.prepare('DELETE FROM records WHERE kind = ? AND hash = ? AND origin = ?').run(kind, hash, origin);
}

/** Every record held from one origin, in a stable order. */
export function recordsOf(db: Db, origin: string): StoredRecord[] {
  return db
    .prepare(`SELECT ${columns} FROM records WHERE origin = ? ORDER BY kind, hash`)
    .all(origin) as StoredRecord[];
}

/** Every record held about one lesson hash, of one kind, from any origin. */
export function recordsAbout(db: Db, kind: StoredRecordKind, hash: string): StoredRecord[] {
  return db
    .prepare(`SELECT ${columns} FROM records WHERE kind = ? AND hash = ? ORDER BY origin`)
    .all(kind, hash) as StoredRecord[];
}

/** Each origin held, with how many records and the latest `updated` among them (for an index). */
export function heldOrigins(db: Db): { origin: string; records: number; updated: string }[] {
  const rows = db.prepare('SELECT origin, updated FROM records ORDER BY origin').all() as {
    origin: string;
    updated: string;
  }[];
  const byOrigin = new Map<string, { origin: string; records: number; updated: string }>();
  for (const row of rows) {
    const entry = byOrigin.get(row.origin);
    if (entry === undefined)
      byOrigin.set(row.origin, { origin: row.origin, records: 1, updated: row.updated });
    else {
      entry.records++;
      if (isLater({ updated: row.updated, line: '' }, { updated: entry.updated, line: '' }))
        entry.updated = row.updated;
    }
  }
  return [...byOrigin.values()];
}
