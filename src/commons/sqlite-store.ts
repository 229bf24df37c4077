import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { RememError } from '../core/index.ts';
import type { Origin } from '../protocol/index.ts';
import type { CommonsStore, IndexRow, PutOutcome, StoredFile, TokenRow } from './store.ts';

const schema = `
CREATE TABLE IF NOT EXISTS commons_files (
  origin TEXT PRIMARY KEY,
  body BLOB NOT NULL,
  updated TEXT NOT NULL,
  updated_key TEXT NOT NULL,
  records INTEGER NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS commons_files_by_time ON commons_files (updated_key, origin);
CREATE TABLE IF NOT EXISTS commons_records (
  origin TEXT NOT NULL REFERENCES commons_files (origin) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  kind TEXT NOT NULL,
  hash TEXT NOT NULL,
  updated_key TEXT NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY (origin, n)
);
CREATE TABLE IF NOT EXISTS commons_tokens (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  origin TEXT,
  created TEXT NOT NULL,
  revoked TEXT
);
CREATE TABLE IF NOT EXISTS commons_rate (
  token TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (token, window_start)
);
CREATE TABLE IF NOT EXISTS commons_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO commons_meta (name, value) VALUES ('seq', 0);
`;

interface TokenDbRow {
  id: string;
  origin: string | null;
  created: string;
  revoked: string | null;
}

const tokenOf = (row: TokenDbRow): TokenRow => ({
  id: row.id,
  origin: row.origin as Origin | null,
  created: row.created,
  revoked: row.revoked,
});

/** A commons in one SQLite file (`:memory:` for a throwaway one). Several processes may share the file. */
export function openSqliteCommonsStore(path: string): CommonsStore {
  let db: Database.Database;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    db = new Database(path);
  } catch (error) {
    throw new RememError('store_unavailable', `cannot open ${path}: ${(error as Error).message}`);
  }
  db.pragma('busy_timeout = 10000');
  // WAL: readers never wait for the writer.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.transaction(() => db.exec(schema)).immediate();

  const held = db.prepare<[string], { updated: string; updated_key: string; body: Buffer }>(
    'SELECT updated, updated_key, body FROM commons_files WHERE origin = ?',
  );
  const nextSeq = db.prepare<[], { value: number }>(
    "UPDATE commons_meta SET value = value + 1 WHERE name = 'seq' RETURNING value",
  );
  const upsert = db.prepare(
    `INSERT INTO commons_files (origin, body, updated, updated_key, records, seq) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (origin) DO UPDATE SET body = excluded.body, updated = excluded.updated,
       updated_key = excluded.updated_key, records = excluded.records, seq = excluded.seq`,
  );
  const dropRecords = db.prepare('DELETE FROM commons_records WHERE origin = ?');
  const addRecord = db.prepare(
    'INSERT INTO commons_records (origin, n, kind, hash, updated_key, line) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const put = db.transaction((file: Parameters<CommonsStore['putFile']>[0]): PutOutcome => {
    const current = held.get(file.origin);
    if (current !== undefined) {
      if (current.updated_key > file.updatedKey) {
        return { outcome: 'stale', held: { updated: current.updated, sameTime: false } };
      }
      if (current.updated_key === file.updatedKey) {
        if (Buffer.compare(current.body, file.body) === 0) return { outcome: 'unchanged' };
        return { outcome: 'stale', held: { updated: current.updated, sameTime: true } };
      }
    }
    const seq = nextSeq.get()!.value;
    upsert.run(file.origin, file.body, file.updated, file.updatedKey, file.records.length, seq);
    dropRecords.run(file.origin);
    file.records.forEach((record, n) => {
      addRecord.run(file.origin, n, record.kind, record.hash, record.updatedKey, record.line);
    });
    return { outcome: 'stored' };
  });

  const getFile = db.prepare<[string], { body: Buffer; updated: string; records: number }>(
    'SELECT body, updated, records FROM commons_files WHERE origin = ?',
  );
  const countHit = db.prepare<[string, number], { count: number }>(
    `INSERT INTO commons_rate (token, window_start, count) VALUES (?, ?, 1)
     ON CONFLICT (token, window_start) DO UPDATE SET count = count + 1 RETURNING count`,
  );
  const pruneHits = db.prepare('DELETE FROM commons_rate WHERE window_start < ?');
  const allLines = db.prepare<[], string>('SELECT line FROM commons_records').pluck();
  const linesSince = db
    .prepare<[string], string>(
      `SELECT r.line FROM commons_records r JOIN commons_files f ON f.origin = r.origin
       WHERE f.updated_key > ?`,
    )
    .pluck();
  const seqValue = db.prepare<[], number>("SELECT value FROM commons_meta WHERE name = 'seq'").pluck();
  const insertToken = db.prepare(
    'INSERT INTO commons_tokens (id, hash, origin, created, revoked) VALUES (?, ?, ?, ?, ?)',
  );
  const tokenByHash = db.prepare<[string], TokenDbRow>(
    'SELECT id, origin, created, revoked FROM commons_tokens WHERE hash = ?',
  );
  const allTokens = db.prepare<[], TokenDbRow>(
    'SELECT id, origin, created, revoked FROM commons_tokens ORDER BY created, id',
  );
  const markRevoked = db.prepare('UPDATE commons_tokens SET revoked = ? WHERE id = ? AND revoked IS NULL');
  const indexQueries = new Map<string, Database.Statement<(string | number)[], IndexRow>>();

  return {
    kind: 'sqlite',
    async putFile(file) {
      return put.immediate(file);
    },
    async getFile(origin) {
      const row = getFile.get(origin);
      if (row === undefined) return null;
      return {
        origin,
        body: new Uint8Array(row.body),
        updated: row.updated,
        records: row.records,
      } as StoredFile;
    },
    async indexPage(query) {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (query.sinceKey !== undefined) {
        where.push('updated_key > ?');
        params.push(query.sinceKey);
      }
      if (query.after !== undefined) {
        where.push('(updated_key > ? OR (updated_key = ? AND origin > ?))');
        params.push(query.after.updatedKey, query.after.updatedKey, query.after.origin);
      }
      const sql = `SELECT origin, updated, updated_key AS updatedKey, records FROM commons_files
        ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_key, origin LIMIT ?`;
      let statement = indexQueries.get(sql);
      if (statement === undefined) {
        statement = db.prepare<(string | number)[], IndexRow>(sql);
        indexQueries.set(sql, statement);
      }
      return statement.all(...params, query.limit);
    },
    async allRecords() {
      return allLines.all();
    },
    async recordsSince(sinceKey) {
      return linesSince.all(sinceKey);
    },
    async version() {
      return String(seqValue.get());
    },
    async addToken(token) {
      insertToken.run(token.id, token.hash, token.origin, token.created, token.revoked);
    },
    async findToken(hash) {
      const row = tokenByHash.get(hash);
      return row === undefined ? null : tokenOf(row);
    },
    async listTokens() {
      return allTokens.all().map(tokenOf);
    },
    async revokeToken(id, at) {
      return markRevoked.run(at, id).changes > 0;
    },
    async countRequest(token, windowStart) {
      const count = countHit.get(token, windowStart)!.count;
      if (count === 1) pruneHits.run(windowStart);
      return count;
    },
    async close() {
      db.close();
    },
  };
}
