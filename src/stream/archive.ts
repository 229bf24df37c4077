import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { constants, gunzipSync, gzip, gzipSync } from 'node:zlib';

const gzipAsync = promisify(gzip);

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

/** One gzip member of the archive, compressed on the thread pool so parsing goes on meanwhile. */
export function compressMember(bytes: Buffer): Promise<Buffer> {
  // Level 1: archiving must not be the slow part of ingest; the raw stream compresses well anyway.
  return gzipAsync(bytes, { level: constants.Z_BEST_SPEED });
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

/** Compresses and appends in one step (for callers with nothing to do meanwhile). */
export function appendToArchive(
  home: string,
  relative: string,
  committedBytes: number,
  bytes: Buffer,
): number {
  const member = bytes.length ? gzipSync(bytes, { level: constants.Z_BEST_SPEED }) : Buffer.alloc(0);
  return appendMember(home, relative, committedBytes, member);
}

/** The archive's bytes, decompressed: exactly the transcript bytes read so far, up to `committedBytes`. */
export function readArchive(home: string, relative: string, committedBytes: number): Buffer {
  const whole = readFileSync(join(home, relative));
  return gunzipSync(whole.subarray(0, committedBytes));
}
