import type { Statement } from 'better-sqlite3';
import type { Db } from './open.ts';

const byConnection = new WeakMap<Db, Map<string, Statement>>();

/**
 * The statement for `sql` on this connection, prepared on first use and kept: ingest runs the same few statements
 * for every file and every session, and preparing costs more than running them. Only for fixed SQL used with
 * `run`, `get` and `all` (a kept statement must not carry `pluck` or `raw` from one caller to the next).
 */
export function prepared(db: Db, sql: string): Statement {
  let statements = byConnection.get(db);
  if (statements === undefined) {
    statements = new Map();
    byConnection.set(db, statements);
  }
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
