/**
 * Driving the built `remem` as separate processes that can be stopped at any moment, and reading what a
 * store holds: the episodes and lessons, and whether SQLite finds the file whole.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { repoRoot } from '../helpers/remem.ts';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

let binary = join(repoRoot, 'bin', 'remem.js');

/** The `remem` the cases run: the repository's build, or a copy of it that a rebuild meanwhile cannot change. */
export function rememBinary(): string {
  return binary;
}

export function useRememBinary(path: string): void {
  binary = path;
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface Started {
  child: ChildProcess;
  done: Promise<Finished>;
  /** Whether the process has exited. */
  exited(): boolean;
}

export interface SpawnOptions {
  home: string;
  now?: string;
  input?: string | Buffer;
  env?: Record<string, string>;
  cwd?: string;
}

/** The environment a command runs in: only the temporary home, never this machine's agents. */
export function envFor(options: SpawnOptions): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: join(options.home, 'user'),
    REMEM_HOME: options.home,
    CODEX_HOME: join(options.home, 'user', '.codex'),
    ...(options.now ? { REMEM_NOW: options.now } : {}),
    ...options.env,
  };
}

/** Starts `remem ARGS` and collects what it writes, without waiting for it. */
export function startRemem(args: string[], options: SpawnOptions): Started {
  const started = performance.now();
  const child = spawn(process.execPath, [binary, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: envFor(options),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let exited = false;
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  // A child stopped before it read its input closes the pipe under the write.
  child.stdin?.on('error', () => {});
  child.stdin?.end(options.input ?? '');
  const done = new Promise<Finished>((resolve) => {
    child.on('close', (code, signal) => {
      exited = true;
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        ms: performance.now() - started,
      });
    });
  });
  child.on('exit', () => {
    exited = true;
  });
  return { child, done, exited: () => exited };
}

/** Runs `remem ARGS` to its end. */
export function runRemem(args: string[], options: SpawnOptions): Promise<Finished> {
  return startRemem(args, options).done;
}

export const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A copy of a prepared home, so each trial starts from the same state. */
export function copyHome(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}

function open(home: string, readonly: boolean): BetterSqlite3.Database | null {
  const path = join(home, 'remem.db');
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Rows of one query on the store, read-only; none when there is no store. */
export function query(home: string, sql: string): Record<string, unknown>[] {
  const db = open(home, true);
  if (db === null) return [];
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` and `foreign_key_check` on the store, as the next command would open it. */
export function checkIntegrity(home: string): string {
  const db = open(home, false);
  if (db === null) return 'ok';
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const integrity = rows.map((row) => row.integrity_check).join('; ');
    if (integrity !== 'ok') return integrity;
    const broken = db.pragma('foreign_key_check') as unknown[];
    return broken.length === 0 ? 'ok' : `${broken.length} rows break a foreign key`;
  } finally {
    db.close();
  }
}

/** The rows that make the memory, keyed, with the times they were recorded and the row ids left out. */
export interface StoreState {
  /** By episode key. */
  episodes: Map<string, string>;
  /** By lesson hash. */
  lessons: Map<string, string>;
  /** A lesson's earlier hash → the hash it took when a join or a merge reworded it (from the audit log). */
  renamed: Map<string, string>;
  /** Nights committed. */
  sleeps: number;
}

const RECORDED = new Set(['recorded_at', 'created_at', 'updated_at']);

/**
 * A row as text, without its recorded times and its id, a lesson it points to named by its hash (ids follow the
 * order rows were written in, which an interrupted run changes), and the home's own path written `~`.
 */
function rowText(row: Record<string, unknown>, home: string, hashes: Map<unknown, string>): string {
  const fields = Object.entries(row)
    .filter(([column]) => column !== 'id' && !RECORDED.has(column))
    .map(([column, value]) =>
      (column === 'lesson_id' || column === 'merged_into') && value !== null
        ? [column, hashes.get(value)]
        : [column, value],
    );
  return JSON.stringify(fields).replaceAll(home, '~');
}

function tableExists(db: BetterSqlite3.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * What the store holds, read in one transaction: a snapshot of what was committed at that moment, taken
 * beside a writer that goes on (WAL).
 */
export function readState(home: string): StoreState {
  const state: StoreState = { episodes: new Map(), lessons: new Map(), renamed: new Map(), sleeps: 0 };
  const db = open(home, true);
  if (db === null) return state;
  try {
    db.transaction(() => {
      const hashes = new Map<unknown, string>();
      if (tableExists(db, 'lessons')) {
        const lessons = db.prepare('SELECT * FROM lessons ORDER BY id').all() as Record<string, unknown>[];
        for (const row of lessons) hashes.set(row['id'], String(row['hash']));
        for (const row of lessons) {
          let key = String(row['hash']);
          while (state.lessons.has(key)) key += '+';
          state.lessons.set(key, rowText(row, home, hashes));
        }
      }
      if (tableExists(db, 'episodes')) {
        for (const row of db.prepare('SELECT * FROM episodes ORDER BY id').all() as Record<string, unknown>[])
          state.episodes.set(String(row['key']), rowText(row, home, hashes));
      }
      if (tableExists(db, 'audit')) {
        const reworded = db
          .prepare(
            "SELECT hash, reason FROM audit WHERE action IN ('join', 'merge') AND reason LIKE '%; was %'",
          )
          .all() as { hash: string; reason: string }[];
        for (const { hash, reason } of reworded) {
          const was = /; was ([0-9a-f]+)/.exec(reason)?.[1];
          if (was && was !== hash) state.renamed.set(was, hash);
        }
      }
      if (tableExists(db, 'sleeps')) {
        state.sleeps = (db.prepare('SELECT COUNT(*) AS n FROM sleeps').get() as { n: number }).n;
      }
    })();
  } catch (error) {
    // A store still being created has no tables yet: nothing was committed.
    if (!/no such table/.test((error as Error).message)) throw error;
  } finally {
    db.close();
  }
  return state;
}

/** Rows of `before` missing from `after` (by key): what was committed and then lost. */
export function lostRows(before: StoreState, after: StoreState): string[] {
  const lost: string[] = [];
  for (const key of before.episodes.keys()) if (!after.episodes.has(key)) lost.push(`episode ${key}`);
  for (const key of before.lessons.keys()) {
    // A lesson a join or a merge reworded is there under the hash it took.
    let hash = key;
    for (let hops = 0; !after.lessons.has(hash) && after.renamed.has(hash) && hops < 100; hops++) {
      hash = after.renamed.get(hash)!;
    }
    if (!after.lessons.has(hash)) lost.push(`lesson ${key}`);
  }
  return lost;
}

/** How two states differ, in a few words; null when they hold the same rows. */
export function stateDifference(actual: StoreState, expected: StoreState): string | null {
  const differences: string[] = [];
  for (const [name, a, b] of [
    ['episodes', actual.episodes, expected.episodes],
    ['lessons', actual.lessons, expected.lessons],
  ] as const) {
    let missing = 0;
    let extra = 0;
    let changed = 0;
    let example = '';
    for (const [key, row] of b) {
      const other = a.get(key);
      if (other === undefined) missing++;
      else if (other !== row) {
        changed++;
        example ||= `${key}: ${other} instead of ${row}`;
      }
    }
    for (const key of a.keys()) if (!b.has(key)) extra++;
    if (missing || extra || changed) {
      differences.push(
        `${name}: ${missing} missing, ${extra} extra, ${changed} changed${example ? ` (${example.slice(0, 400)})` : ''}`,
      );
    }
  }
  return differences.length ? differences.join('; ') : null;
}
