import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { RememError } from '../core/index.ts';
import { migrations } from './migrations.ts';

export type Db = Database.Database;

export interface Store {
  db: Db;
  home: string;
  path: string;
  schemaVersion: number;
  close(): void;
}

export interface OpenOptions {
  /** Open without migrating or writing; fails when the store does not exist. Used on the hook path. */
  readonly?: boolean;
  /** How long a writer waits for another writer, in ms. */
  busyTimeoutMs?: number;
}

export const STORE_FILE = 'remem.db';
export const SCHEMA_VERSION = migrations.length;

/**
 * Keeps SQLite's temporary files in memory until the returned function restores the default. In a transaction,
 * every insert into a table with triggers (episodes) first copies the pages it changes to a statement journal,
 * which spills to a file past 64 KiB: an ingest's thousands of inserts made that file most of its writes. Only for
 * a run's length: a sort too large for memory still goes to disk elsewhere.
 */
export function keepTempInMemory(db: Db): () => void {
  const before = db.pragma('temp_store', { simple: true }) as number;
  db.pragma('temp_store = MEMORY');
  return () => db.pragma(`temp_store = ${before}`);
}

/** SQLite's `quick_check`: `ok`, or what it found wrong. */
export function quickCheck(db: Db): string {
  return String(db.pragma('quick_check', { simple: true }));
}

/** Opens (and, unless read-only, creates and migrates) the one SQLite file under the home folder. */
export function openStore(home: string, options: OpenOptions = {}): Store {
  const path = join(home, STORE_FILE);
  let db: Db;
  try {
    if (!options.readonly) mkdirSync(home, { recursive: true, mode: 0o700 });
    // Loaded on first open: a hook that answers from the compiled index never pays for the native module.
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
    db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw new RememError('store_unavailable', `cannot open ${path}: ${(error as Error).message}`);
  }
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
  cacheStatements(db);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) {
    db.close();
    throw new RememError(
      'store_too_new',
      `${path} has schema version ${version}; this remem knows up to ${migrations.length}`,
    );
  }
  if (!options.readonly) {
    // WAL: the nightly job writes while hooks and recall read.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // A transaction that reads before it writes cannot wait for another writer's commit: SQLite answers
    // SQLITE_BUSY at once, whatever the busy timeout. Beginning IMMEDIATE makes the wait happen at BEGIN.
    const transaction = db.transaction.bind(db);
    db.transaction = ((fn) => transaction(fn).immediate) as Db['transaction'];
    migrate(db, version);
  }
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  return { db, home, path, schemaVersion, close: () => db.close() };
}

/**
 * Each SQL text is prepared once per connection: the store's functions prepare where they run, and one night
 * runs some of them thousands of times. Safe because nothing here changes a statement's mode (`pluck`, `raw`,
 * `expand`) or iterates one while running it again.
 */
function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }) as Db['prepare'];
}

function migrate(db: Db, from: number): void {
  for (let index = from; index < migrations.length; index++) {
    const sql = migrations[index]!;
    db.transaction(() => {
      // Another process may have migrated while this one waited for the write lock.
      if ((db.pragma('user_version', { simple: true }) as number) > index) return;
      db.exec(sql);
      db.pragma(`user_version = ${index + 1}`);
    }).immediate();
  }
  // A migration that rebuilt a table leaves the old one's pages free: when they are a third of the file, the
  // file is rewritten once, so an upgrade gives the space back rather than keeping it until it is reused.
  if (from > 0 && from < migrations.length) {
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    if (free * 3 > pages) db.exec('VACUUM');
  }
}
