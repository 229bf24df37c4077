import type { Db } from './open.ts';

export interface RawFile {
  id: number;
  path: string;
  agent: string;
  session: string;
  archive: string;
  archiveBytes: number;
  generation: number;
  offset: number;
  lines: number;
  prefixHash: string;
  size: number;
  mtimeMs: number;
  readAt: string;
}

interface RawFileRow {
  id: number;
  path: string;
  agent: string;
  session: string;
  archive: string;
  archive_bytes: number;
  generation: number;
  offset: number;
  lines: number;
  prefix_hash: string;
  size: number;
  mtime_ms: number;
  read_at: string;
}

function fromRow(row: RawFileRow): RawFile {
  return {
    id: row.id,
    path: row.path,
    agent: row.agent,
    session: row.session,
    archive: row.archive,
    archiveBytes: row.archive_bytes,
    generation: row.generation,
    offset: row.offset,
    lines: row.lines,
    prefixHash: row.prefix_hash,
    size: row.size,
    mtimeMs: row.mtime_ms,
    readAt: row.read_at,
  };
}

export function getRawFile(db: Db, path: string): RawFile | undefined {
  const row = db.prepare('SELECT * FROM raw_files WHERE path = ?').get(path) as RawFileRow | undefined;
  return row && fromRow(row);
}

export function listRawFiles(db: Db): RawFile[] {
  return (db.prepare('SELECT * FROM raw_files ORDER BY path').all() as RawFileRow[]).map(fromRow);
}

export function listRawFilesOfSession(db: Db, agent: string, session: string): RawFile[] {
  return (
    db
      .prepare('SELECT * FROM raw_files WHERE agent = ? AND session = ? ORDER BY path')
      .all(agent, session) as RawFileRow[]
  ).map(fromRow);
}

export function saveRawFile(db: Db, file: Omit<RawFile, 'id'>): number {
  const row = db
    .prepare(`INSERT INTO raw_files (path, agent, session, archive, archive_bytes, generation, offset, lines, prefix_hash, size, mtime_ms, read_at)
       VALUES (@path, @agent, @session, @archive, @archiveBytes, @generation, @offset, @lines, @prefixHash, @size, @mtimeMs, @readAt)
       ON CONFLICT (path) DO UPDATE SET agent = excluded.agent, session = excluded.session, archive = excluded.archive, archive_bytes = excluded.archive_bytes,
         generation = excluded.generation, offset = excluded.offset, lines = excluded.lines,
         prefix_hash = excluded.prefix_hash, size = excluded.size, mtime_ms = excluded.mtime_ms, read_at = excluded.read_at
       RETURNING id`)
    .get(file) as { id: number };
  return row.id;
}

export function rawFileTotals(db: Db): { files: number; bytes: number } {
  return db.prepare('SELECT COUNT(*) AS files, COALESCE(SUM(offset), 0) AS bytes FROM raw_files').get() as {
    files: number;
    bytes: number;
  };
}

/** Per agent: the files read, the sessions they hold, and when one was last read. */
export interface SourceTally {
  agent: string;
  files: number;
  sessions: number;
  lastRead: string;
}

export function rawFileSources(db: Db): SourceTally[] {
  return db
    .prepare(
      `SELECT agent, COUNT(*) AS files, COUNT(DISTINCT session) AS sessions, MAX(read_at) AS lastRead
       FROM raw_files GROUP BY agent ORDER BY agent`,
    )
    .all() as SourceTally[];
}

export function markSessionStale(db: Db, agent: string, session: string): void {
  db.prepare('INSERT OR IGNORE INTO stale_sessions (agent, session) VALUES (?, ?)').run(agent, session);
}

export function staleSessions(db: Db): { agent: string; session: string }[] {
  return db.prepare('SELECT agent, session FROM stale_sessions ORDER BY agent, session').all() as {
    agent: string;
    session: string;
  }[];
}

export function clearStaleSession(db: Db, agent: string, session: string): void {
  db.prepare('DELETE FROM stale_sessions WHERE agent = ? AND session = ?').run(agent, session);
}
