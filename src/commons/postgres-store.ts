import pg from 'pg';
import { RememError } from '../core/index.ts';
import type { Origin } from '../protocol/index.ts';
import type { CommonsStore, IndexRow, PutOutcome, TokenRow } from './store.ts';

// COLLATE "C": keys and origins compare byte by byte, as in SQLite and in the index cursor.
const schemaSql = `
CREATE TABLE IF NOT EXISTS commons_files (
  origin text COLLATE "C" PRIMARY KEY,
  body bytea NOT NULL,
  updated text NOT NULL,
  updated_key text COLLATE "C" NOT NULL,
  records integer NOT NULL,
  seq bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS commons_files_by_time ON commons_files (updated_key, origin);
CREATE SEQUENCE IF NOT EXISTS commons_seq;
CREATE TABLE IF NOT EXISTS commons_records (
  origin text NOT NULL REFERENCES commons_files (origin) ON DELETE CASCADE,
  n integer NOT NULL,
  kind text NOT NULL,
  hash text NOT NULL,
  updated_key text NOT NULL,
  line text NOT NULL,
  PRIMARY KEY (origin, n)
);
CREATE TABLE IF NOT EXISTS commons_tokens (
  id text PRIMARY KEY,
  hash text NOT NULL UNIQUE,
  origin text,
  created text NOT NULL,
  revoked text
);
CREATE TABLE IF NOT EXISTS commons_rate (
  token text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (token, window_start)
);
`;

// Any constant will do: it only keeps two processes from creating the tables at the same moment.
const migrationLock = 0x72656d656d;

export interface PostgresOptions {
  /** Connections per process. */
  poolSize?: number;
}

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

function splitSchema(url: string): { connectionString: string; schema: string | null } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new RememError('bad_db', `schema must be lowercase letters, digits and _: ${schema}`);
  }
  return { connectionString: parsed.toString(), schema };
}

/**
 * A commons in PostgreSQL, for one that outgrows a machine: any number of stateless server processes over one
 * database. Puts of one origin are serialised by an advisory lock; everything else is one statement.
 */
export async function openPostgresCommonsStore(
  url: string,
  options: PostgresOptions = {},
): Promise<CommonsStore> {
  const { connectionString, schema } = splitSchema(url);
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    ...(schema === null ? {} : { options: `-c search_path=${schema}` }),
  });
  pool.on('error', () => {
    // An idle connection that dies is replaced on next use; the query that needs it reports the failure.
  });
  try {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [migrationLock]);
      if (schema !== null) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(schemaSql);
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLock]);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    const where = new URL(connectionString);
    throw new RememError(
      'store_unavailable',
      `cannot open PostgreSQL at ${where.host}${where.pathname}: ${(error as Error).message}`,
    );
  }

  async function put(file: Parameters<CommonsStore['putFile']>[0]): Promise<PutOutcome> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [file.origin]);
      const held = await client.query<{ updated: string; updated_key: string; body: Buffer }>(
        'SELECT updated, updated_key, body FROM commons_files WHERE origin = $1',
        [file.origin],
      );
      const current = held.rows[0];
      let outcome: PutOutcome | null = null;
      if (current !== undefined && current.updated_key > file.updatedKey) {
        outcome = { outcome: 'stale', held: { updated: current.updated, sameTime: false } };
      } else if (current !== undefined && current.updated_key === file.updatedKey) {
        outcome = current.body.equals(file.body)
          ? { outcome: 'unchanged' }
          : { outcome: 'stale', held: { updated: current.updated, sameTime: true } };
      }
      if (outcome !== null) {
        await client.query('ROLLBACK');
        return outcome;
      }
      await client.query(
        `INSERT INTO commons_files (origin, body, updated, updated_key, records, seq)
         VALUES ($1, $2, $3, $4, $5, nextval('commons_seq'))
         ON CONFLICT (origin) DO UPDATE SET body = excluded.body, updated = excluded.updated,
           updated_key = excluded.updated_key, records = excluded.records, seq = excluded.seq`,
        [file.origin, Buffer.from(file.body), file.updated, file.updatedKey, file.records.length],
      );
      await client.query('DELETE FROM commons_records WHERE origin = $1', [file.origin]);
      await client.query(
        `INSERT INTO commons_records (origin, n, kind, hash, updated_key, line)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[])`,
        [
          file.origin,
          file.records.map((_, n) => n),
          file.records.map((record) => record.kind),
          file.records.map((record) => record.hash),
          file.records.map((record) => record.updatedKey),
          file.records.map((record) => record.line),
        ],
      );
      await client.query('COMMIT');
      return { outcome: 'stored' };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  return {
    kind: 'postgres',
    putFile: put,
    async getFile(origin) {
      const result = await pool.query<{ body: Buffer; updated: string; records: number }>(
        'SELECT body, updated, records FROM commons_files WHERE origin = $1',
        [origin],
      );
      const row = result.rows[0];
      if (row === undefined) return null;
      return { origin, body: new Uint8Array(row.body), updated: row.updated, records: row.records };
    },
    async indexPage(query) {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (query.sinceKey !== undefined) {
        params.push(query.sinceKey);
        where.push(`updated_key > $${params.length}`);
      }
      if (query.after !== undefined) {
        params.push(query.after.updatedKey, query.after.origin);
        where.push(`(updated_key, origin) > ($${params.length - 1}, $${params.length})`);
      }
      params.push(query.limit);
      const result = await pool.query<IndexRow>(
        `SELECT origin, updated, updated_key AS "updatedKey", records FROM commons_files
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY updated_key, origin LIMIT $${params.length}`,
        params,
      );
      return result.rows;
    },
    async allRecords() {
      const result = await pool.query<{ line: string }>('SELECT line FROM commons_records');
      return result.rows.map((row) => row.line);
    },
    async recordsSince(sinceKey) {
      const result = await pool.query<{ line: string }>(
        `SELECT r.line FROM commons_records r JOIN commons_files f ON f.origin = r.origin
         WHERE f.updated_key > $1`,
        [sinceKey],
      );
      return result.rows.map((row) => row.line);
    },
    async version() {
      // The sum of sequence numbers grows with every committed put, whatever order writers commit in.
      const result = await pool.query<{ version: string }>(
        `SELECT count(*)::text || ':' || coalesce(sum(seq), 0)::text AS version FROM commons_files`,
      );
      return result.rows[0]?.version ?? '0:0';
    },
    async addToken(token) {
      await pool.query(
        'INSERT INTO commons_tokens (id, hash, origin, created, revoked) VALUES ($1, $2, $3, $4, $5)',
        [token.id, token.hash, token.origin, token.created, token.revoked],
      );
    },
    async findToken(hash) {
      const result = await pool.query<TokenDbRow>(
        'SELECT id, origin, created, revoked FROM commons_tokens WHERE hash = $1',
        [hash],
      );
      const row = result.rows[0];
      return row === undefined ? null : tokenOf(row);
    },
    async listTokens() {
      const result = await pool.query<TokenDbRow>(
        'SELECT id, origin, created, revoked FROM commons_tokens ORDER BY created, id',
      );
      return result.rows.map(tokenOf);
    },
    async revokeToken(id, at) {
      const result = await pool.query(
        'UPDATE commons_tokens SET revoked = $1 WHERE id = $2 AND revoked IS NULL',
        [at, id],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async countRequest(token, windowStart) {
      const result = await pool.query<{ count: number }>(
        `INSERT INTO commons_rate (token, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (token, window_start) DO UPDATE SET count = commons_rate.count + 1 RETURNING count`,
        [token, windowStart],
      );
      const count = result.rows[0]?.count ?? 1;
      if (count === 1) await pool.query('DELETE FROM commons_rate WHERE window_start < $1', [windowStart]);
      return count;
    },
    async close() {
      await pool.end();
    },
  };
}
