import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { RememError } from '../core/index.ts';

function holderOf(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * One holder at a time of a named lock under the home folder (`remem run`): a second caller is told who
 * holds it and gives up. The lock is SQLite's lock on `<name>.lock.db`, held by an open write transaction
 * (BEGIN IMMEDIATE): taking it is atomic, and the system lets it go when the holder exits, however it exits. (A
 * file naming a process, taken over when that process is gone, let two callers that found the same dead
 * holder both take it.) `<name>.lock` names the holder for the message.
 */
export function acquireLock(home: string, name: string): () => void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const holderFile = join(home, `${name}.lock`);
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(join(home, `${name}.lock.db`));
  try {
    db.pragma('busy_timeout = 0');
    // The reserved lock: one holder at most, taken in one step. (The exclusive one is reached through a shared lock
    // and must wait for every other shared lock to go: two callers that started together each found the other's
    // shared lock, and both gave up.)
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    const holder = holderOf(holderFile);
    throw new RememError(
      'busy',
      `another remem ${name} is running${holder ? ` (pid ${holder})` : ''}; this one stops here`,
    );
  }
  writeFileSync(holderFile, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    rmSync(holderFile, { force: true });
    db.close();
  };
}
