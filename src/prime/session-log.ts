// SHA-256 in JavaScript: loading node:crypto costs a hook process more than all of its answer.

import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';

/**
 * What the hooks did in one session, one JSON line per event, appended (never rewritten) under
 * `REMEM_HOME/prime/`. A hook never waits on the database writer: it reads and appends this small file,
 * and the nightly job moves the rows into the audit tables.
 */
export interface PrimeLogRow {
  at: string;
  session: string;
  moment: 'prompt' | 'stop' | 'tool';
  shown: boolean;
  heldOut: boolean;
  lessonHashes: string[];
  considered: number;
  dropped: number;
  reasons: Record<string, number>;
  /** The prompt's own mark, read by the Stop hook's gate: the person said only they have what is needed. */
  needsPerson?: boolean;
  /** A Stop that continued the turn. */
  blocked?: boolean;
  ms: number;
  outcome: 'answered' | 'silent' | 'failed' | 'timeout';
  error?: string;
}

export function primeDir(home: string): string {
  return join(home, 'prime');
}

/** The last session's file name: a hook reads its session's log and then appends to it, and hashes once. */
let named: { session: string; name: string } | null = null;

function sessionFile(home: string, session: string): string {
  if (named?.session !== session) {
    const name = Buffer.from(sha256(Buffer.from(session, 'utf8')))
      .toString('hex')
      .slice(0, 24);
    named = { session, name };
  }
  return join(primeDir(home), `${named.name}.jsonl`);
}

export function readSessionLog(home: string, session: string): PrimeLogRow[] {
  const path = sessionFile(home, session);
  if (!existsSync(path)) return [];
  const rows: PrimeLogRow[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      rows.push(JSON.parse(line) as PrimeLogRow);
    } catch {
      // a line cut by a crash is passed over
    }
  }
  return rows;
}

/** One append of one line: atomic for lines of this size on a local disk. The folder is made the first time. */
export function appendSessionLog(home: string, row: PrimeLogRow): void {
  const line = `${JSON.stringify(row)}\n`;
  try {
    appendFileSync(sessionFile(home, row.session), line, { mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(primeDir(home), { recursive: true, mode: 0o700 });
    appendFileSync(sessionFile(home, row.session), line, { mode: 0o600 });
  }
}

/**
 * Takes every session log for the audit tables: each file is renamed before it is read, so a hook that
 * appends meanwhile starts a new file and nothing is read twice or lost. `keep` is called with the rows
 * of one file; the file is removed only after it returns.
 */
export function drainSessionLogs(home: string, keep: (rows: PrimeLogRow[]) => void): number {
  const dir = primeDir(home);
  if (!existsSync(dir)) return 0;
  let count = 0;
  for (const name of readdirSync(dir)) {
    // A file left mid-drain by a run that died is taken as it is.
    if (!name.endsWith('.jsonl') && !name.endsWith('.jsonl.draining')) continue;
    const draining = name.endsWith('.draining') ? join(dir, name) : join(dir, `${name}.draining`);
    if (draining !== join(dir, name)) renameSync(join(dir, name), draining);
    const rows: PrimeLogRow[] = [];
    for (const line of readFileSync(draining, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        rows.push(JSON.parse(line) as PrimeLogRow);
      } catch {
        // a line cut by a crash is passed over
      }
    }
    keep(rows);
    rmSync(draining);
    count += rows.length;
  }
  return count;
}
