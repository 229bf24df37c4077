import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { constants, gunzipSync, gzipSync } from 'node:zlib';

// Level 1: archiving must not be the slow part of ingest; the raw stream compresses well anyway.
const LEVEL = constants.Z_BEST_SPEED;

/**
 * The raw stream, kept. Every transcript byte Remem reads is appended, gzip-compressed, to an archive
 * under `<home>/raw/` before anything is derived from it. Each read adds one gzip member, so the archive
 * grows with the transcript and decompresses as one stream. Agents delete their transcripts; this does not.
 */

/** The archive's path, relative to the home folder, for a source file and a generation. */
export function archivePathFor(agent: string, session: string, source: string, generation: number): string {
  const tag = createHash('sha256').update(source).digest('hex').slice(0, 8);
  const name = basename(source)
    .replace(/\.jsonl$/, '')
    .replace(/[^A-Za-z0-9._-]/g, '_');
  const safeSession = session.replace(/[^A-Za-z0-9._-]/g, '_') || 'unknown';
  return join('raw', agent, safeSession, `${name}-${tag}.g${generation}.jsonl.gz`);
}

/**
 * Compresses archive members off this thread, in the order asked, with the SHA-256 of their bytes when asked, and
 * appends each to its archive when given one; `close` when done. Bytes in shared memory are handed over without a copy.
 */
export interface Compressor {
  compress(bytes: Buffer, options?: { digest?: boolean; appendTo?: ArchiveTarget }): Promise<Compressed>;
  close(): Promise<void>;
}

/** Where a member goes: `appendMember`'s arguments, and the archive's sidecar, written once beside it. */
export interface ArchiveTarget {
  home: string;
  relative: string;
  committedBytes: number;
  meta: Record<string, unknown>;
}

export interface Compressed {
  /** The member, unless it was appended to an archive. */
  member?: Buffer;
  /** The archive's new length, when the member was appended to one. */
  archiveBytes?: number;
  /** Hex SHA-256 of the bytes compressed, when asked for. */
  sha256?: string;
}

// The worker's whole program. A script, not a module file: it runs the same from the sources and from the build.
// Its \`append\` takes the steps of \`appendMember\` and \`writeArchiveMeta\` below, in the same order.
const COMPRESSOR = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeFileSync, writeSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { gzipSync } = require('node:zlib');
function append({ home, relative, committedBytes, meta }, member) {
  const path = join(home, relative);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fd = openSync(path, existsSync(path) ? 'r+' : 'w+', 0o600);
  try {
    if (fstatSync(fd).size !== committedBytes) ftruncateSync(fd, committedBytes);
    let written = 0;
    while (written < member.length) {
      written += writeSync(fd, member, written, member.length - written, committedBytes + written);
    }
  } finally {
    closeSync(fd);
  }
  const metaPath = path + '.meta.json';
  if (!existsSync(metaPath)) writeFileSync(metaPath, JSON.stringify(meta) + '\\n', { mode: 0o600 });
  return committedBytes + member.length;
}
parentPort.on('message', ({ id, bytes, digest, appendTo }) => {
  try {
    const member = gzipSync(bytes, { level: ${LEVEL} });
    const sha256 = digest ? createHash('sha256').update(bytes).digest('hex') : undefined;
    if (appendTo) parentPort.postMessage({ id, archiveBytes: append(appendTo, member), sha256 });
    else parentPort.postMessage({ id, member, sha256 });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error), code: error && error.code });
  }
});
`;

/**
 * Compresses archive members on a worker thread, started on the first member. This thread only hands bytes over and
 * takes members back; on the thread pool, an async zlib stream would need this thread, busy parsing, for every chunk.
 * Should the worker fail or stop, what it had not returned is compressed here instead.
 */
export function openCompressor(): Compressor {
  type Job = {
    bytes: Buffer;
    digest: boolean;
    appendTo: ArchiveTarget | undefined;
    resolve(compressed: Compressed): void;
    reject(error: Error): void;
  };
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, Job>();
  const start = () => {
    const started = new Worker(COMPRESSOR, { eval: true, execArgv: [] });
    started.unref();
    type Reply = {
      id: number;
      member?: Uint8Array;
      archiveBytes?: number;
      sha256?: string;
      error?: string;
      code?: unknown;
    };
    started.on('message', ({ id, member, archiveBytes, sha256, error, code }: Reply) => {
      const job = waiting.get(id);
      waiting.delete(id);
      const hash = sha256 === undefined ? {} : { sha256 };
      if (error !== undefined) {
        // The code travels with it: a full disk is the run's problem, not this file's.
        const failure = Object.assign(
          new Error(`not archived: ${error}`),
          typeof code === 'string' ? { code } : {},
        );
        job?.reject(failure);
      } else if (archiveBytes !== undefined) job?.resolve({ archiveBytes, ...hash });
      else if (member) {
        const bytes = Buffer.from(member.buffer, member.byteOffset, member.byteLength);
        job?.resolve({ member: bytes, ...hash });
      }
    });
    const fallBack = () => {
      if (worker !== started) return;
      worker = undefined;
      for (const job of waiting.values()) {
        try {
          job.resolve(compressHere(job.bytes, job.digest, job.appendTo));
        } catch (error) {
          job.reject(error as Error);
        }
      }
      waiting.clear();
    };
    started.on('error', fallBack);
    started.on('exit', fallBack);
    return started;
  };
  return {
    compress(bytes, options = {}) {
      worker ??= start();
      const id = nextId++;
      const digest = options.digest === true;
      const { appendTo } = options;
      const compressed = new Promise<Compressed>((resolve, reject) =>
        waiting.set(id, { bytes, digest, appendTo, resolve, reject }),
      );
      // Members are awaited later, in order; a failure is reported then, not as an unhandled rejection now.
      compressed.catch(() => {});
      worker.postMessage({ id, bytes, digest, appendTo });
      return compressed;
    },
    async close() {
      await worker?.terminate();
      worker = undefined;
    },
  };
}

/** What the worker does, done on this thread. */
function compressHere(bytes: Buffer, digest: boolean, appendTo: ArchiveTarget | undefined): Compressed {
  const member = gzipSync(bytes, { level: LEVEL });
  const hash = digest ? { sha256: createHash('sha256').update(bytes).digest('hex') } : {};
  if (appendTo === undefined) return { member, ...hash };
  const { home, relative, committedBytes, meta } = appendTo;
  const archiveBytes = appendMember(home, relative, committedBytes, member);
  writeArchiveMeta(home, relative, meta);
  return { archiveBytes, ...hash };
}

/**
 * Appends a compressed member to the archive, first cutting the archive back to `committedBytes` (a member
 * written by a run that died before it committed is dropped, so the archive never holds a read twice).
 * Returns the archive's new length.
 */
export function appendMember(home: string, relative: string, committedBytes: number, member: Buffer): number {
  const path = join(home, relative);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fd = openSync(path, existsSync(path) ? 'r+' : 'w+', 0o600);
  try {
    if (fstatSync(fd).size !== committedBytes) ftruncateSync(fd, committedBytes);
    let written = 0;
    while (written < member.length) {
      written += writeSync(fd, member, written, member.length - written, committedBytes + written);
    }
    return committedBytes + member.length;
  } finally {
    closeSync(fd);
  }
}

/** Writes the archive's sidecar, naming its source, unless it is there already. */
export function writeArchiveMeta(home: string, relative: string, meta: Record<string, unknown>): void {
  const path = join(home, `${relative}.meta.json`);
  if (!existsSync(path)) writeFileSync(path, `${JSON.stringify(meta)}\n`, { mode: 0o600 });
}

/** Compresses and appends in one step (for callers with nothing to do meanwhile). */
export function appendToArchive(
  home: string,
  relative: string,
  committedBytes: number,
  bytes: Buffer,
): number {
  const member = bytes.length ? gzipSync(bytes, { level: LEVEL }) : Buffer.alloc(0);
  return appendMember(home, relative, committedBytes, member);
}

/** The archive's bytes, decompressed: exactly the transcript bytes read so far, up to `committedBytes`. */
export function readArchive(home: string, relative: string, committedBytes: number): Buffer {
  const whole = readFileSync(join(home, relative));
  return gunzipSync(whole.subarray(0, committedBytes));
}
