import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RememError } from '../core/index.ts';
import {
  defaultFileLimits,
  type FileLimits,
  isOrigin,
  latestAllowed,
  type Origin,
  type RecordFile,
  readRecordFile,
} from '../protocol/index.ts';
import type { CommonsClient } from './commons-client.ts';

/**
 * The folder transport (protocol §5): each memory writes `DIR/<origin>.jsonl`, and anything that syncs files
 * (a shared drive, a repository, rsync) carries it. A reader takes every other memory's file and checks each
 * line; the same reader takes the files a commons serves.
 */

/** The name of a memory's file in a folder, and on the commons. */
export function memoryFileName(origin: string): string {
  return `${origin}.jsonl`;
}

/** A memory's file as one body: one signed record per line. */
export function memoryFileBody(lines: readonly string[]): string {
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * Writes a memory's file whole or not at all: a syncing tool or a reader never sees half of it. The temporary
 * file is named so a reader skips it.
 */
export function writeMemoryFile(dir: string, origin: Origin, lines: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, memoryFileName(origin));
  const temporary = join(dir, `.${memoryFileName(origin)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, memoryFileBody(lines), { mode: 0o644 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return path;
}

/** A memory's file as read, every line checked; `source` says where it was read. */
export interface MemoryFile extends RecordFile {
  source: string;
}

export interface ReadFilesOptions {
  /** This memory's origin: its own file is not read back. */
  except?: string;
  /** The reader's clock, ISO 8601: records dated more than `skewMs` after it are refused. */
  now: string;
  skewMs?: number;
  limits?: FileLimits;
}

function emptyFile(origin: Origin, bytes: number): RecordFile {
  return { origin, records: [], refused: [], problem: null, updated: null, bytes };
}

/**
 * Every other memory's file in `dir`, each checked line by line (`readRecordFile`: every record verified, signed
 * by the origin the file is named after, not dated in the future). Other files are ignored; a folder that does
 * not exist holds nothing.
 */
export function readMemoryFiles(dir: string, options: ReadFilesOptions): MemoryFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const notAfter = latestAllowed(options);
  const limits = options.limits ?? defaultFileLimits;
  const files: MemoryFile[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const origin = name.slice(0, -'.jsonl'.length);
    if (!isOrigin(origin) || origin === options.except) continue;
    const source = join(dir, name);
    const stat = statSync(source);
    if (!stat.isFile()) continue;
    if (stat.size > limits.maxBytes) {
      // Refused unread: a file can be no larger than the commons takes.
      const reason = `${stat.size} bytes: a memory's file is at most ${limits.maxBytes} bytes`;
      files.push({ ...emptyFile(origin, stat.size), problem: { code: 'too_large', reason }, source });
      continue;
    }
    files.push({ ...readRecordFile(origin, readFileSync(source), { notAfter, limits }), source });
  }
  return files;
}

/**
 * Every other memory's file on a commons, paging through its index, each checked line by line as from a
 * folder: the commons checked who wrote it, the receiver checks everything.
 */
export async function fetchMemoryFiles(
  client: CommonsClient,
  options: ReadFilesOptions & { url: string },
): Promise<MemoryFile[]> {
  const notAfter = latestAllowed(options);
  const limits = options.limits ?? defaultFileLimits;
  const files: MemoryFile[] = [];
  let cursor: string | null = null;
  do {
    const page = await client.index(cursor === null ? {} : { cursor });
    for (const entry of page.entries) {
      if (entry.origin === options.except) continue;
      const body = await client.file(entry.origin);
      if (body === null) continue;
      const source = `${options.url.replace(/\/+$/, '')}/commons/${memoryFileName(entry.origin)}`;
      files.push({ ...readRecordFile(entry.origin, body, { notAfter, limits }), source });
    }
    cursor = page.cursor;
  } while (cursor !== null);
  return files;
}

/**
 * Replaces this memory's file on a commons. Returns where it now lives; a refusal (no token, a line the commons
 * would not take, a file older than the one it holds) is a `RememError` naming each refused line.
 */
export async function publishMemoryFile(
  client: CommonsClient,
  url: string,
  origin: Origin,
  lines: readonly string[],
): Promise<string> {
  const published = await client.publish(origin, memoryFileBody(lines));
  if (!published.ok) {
    const refused = published.refused.map(
      (refusal) => `line ${refusal.line} ${refusal.code}: ${refusal.reason}`,
    );
    const why = `the commons refused the file (HTTP ${published.status}, ${published.error}): ${published.message}`;
    throw new RememError('commons_refused', [why, ...refused].join('\n'));
  }
  return `${url.replace(/\/+$/, '')}/commons/${memoryFileName(origin)}`;
}
