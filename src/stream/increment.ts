import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { defaultParams } from '../core/index.ts';

/** Where the last read of a file stopped. */
export interface ReadMark {
  offset: number;
  lines: number;
  prefixHash: string;
}

export interface Increment {
  /** True when the part read before changed, so the file is read again from its start. */
  restarted: boolean;
  /** Byte offset and line number (0-based count of lines before) where `bytes` starts. */
  start: number;
  firstLine: number;
  /** Complete lines only; a last line still being written is left for a later read. */
  bytes: Buffer;
  /** 1 when `bytes` opens with the newline that closes a line consumed before; lines start after it. */
  parseFrom: number;
  mark: ReadMark;
  size: number;
  mtimeMs: number;
  /** A last line still open and already over the line limit: left unread, and skipped when it ends. */
  openLine?: { line: number; bytes: number };
}

const CHUNK = 8 * 1024 * 1024;

function hashRange(fd: number, end: number, hash: Hash): void {
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(end, 1)));
  let position = 0;
  while (position < end) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
    if (read === 0) break;
    hash.update(buffer.subarray(0, read));
    position += read;
  }
}

/**
 * Shared memory a read may fill again once what it held is no longer needed (`releaseRead`). Memory a process has
 * not touched yet costs it a page fault a page on first touch, several times the cost of reading the bytes into it:
 * filled afresh for each file, 100 MB of transcripts took 270–380 ms to read; into memory kept, 30 ms.
 */
const pool: SharedArrayBuffer[] = [];
/** As many as a run has reads in flight (the one committed and those read ahead), and none larger than this. */
const POOLED = 4;
const POOLED_BYTES = 16 * 1024 * 1024;

function sharedBytes(size: number): Buffer {
  let best = -1;
  for (let i = 0; i < pool.length; i++) {
    const length = pool[i]!.byteLength;
    if (length >= size && (best === -1 || length < pool[best]!.byteLength)) best = i;
  }
  if (best !== -1) return Buffer.from(pool.splice(best, 1)[0]!, 0, size);
  // Rounded up, so that the next file, a little larger, fits in what this one leaves.
  const capacity =
    size <= POOLED_BYTES ? Math.max(1 << 20, 2 ** Math.ceil(Math.log2(Math.max(size, 1)))) : size;
  return Buffer.from(new SharedArrayBuffer(capacity), 0, size);
}

/**
 * Gives back the memory of an increment's bytes once nothing reads them any more: not the worker that parses them,
 * nor the one that compresses them, nor anything kept of them. Bytes that were not read into shared memory, or are
 * held already, are left alone.
 */
export function releaseRead(bytes: Buffer): void {
  const memory = bytes.buffer;
  if (!(memory instanceof SharedArrayBuffer) || memory.byteLength > POOLED_BYTES) return;
  if (pool.length >= POOLED || pool.includes(memory)) return;
  pool.push(memory);
}

function readRange(fd: number, start: number, end: number, shared = false): Buffer {
  // Shared memory crosses to a worker without a copy: the archive compresses these bytes on one.
  const buffer = shared ? sharedBytes(end - start) : Buffer.allocUnsafe(end - start);
  let filled = 0;
  while (filled < buffer.length) {
    const read = readSync(fd, buffer, filled, buffer.length - filled, start + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled === buffer.length ? buffer : buffer.subarray(0, filled);
}

/** Counts newline bytes (line feeds) in a buffer. */
export function countLines(bytes: Buffer): number {
  let count = 0;
  let index = bytes.indexOf(10);
  while (index !== -1) {
    count++;
    index = bytes.indexOf(10, index + 1);
  }
  return count;
}

/**
 * The offset just past the last newline in `start..end` (`start` when there is none), when what follows it is
 * over `maxLineBytes`; otherwise null, and the whole range is read as before. Reads backwards, a block at a time.
 */
function openLineStart(fd: number, start: number, end: number, maxLineBytes: number): number | null {
  if (end - start <= maxLineBytes) return null;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (let position = end; position > start; ) {
    const from = Math.max(start, position - buffer.length);
    const read = readSync(fd, buffer, 0, position - from, from);
    const at = buffer.subarray(0, read).lastIndexOf(10);
    if (at !== -1) return end - (from + at + 1) > maxLineBytes ? from + at + 1 : null;
    position = from;
  }
  return start;
}

/**
 * The complete part of `tail`: up to its last newline, or all of it when the last line, unterminated,
 * is already a whole JSON value (a file that ended without a newline). A last line over `maxLineBytes` is never
 * decoded to find out: parsing costs several times its size, and such a line is skipped when it ends anyway.
 */
function completePart(tail: Buffer, maxLineBytes: number): { bytes: Buffer; openBytes: number } {
  const last = tail.lastIndexOf(10);
  const rest = tail.subarray(last + 1);
  if (rest.length > maxLineBytes) return { bytes: tail.subarray(0, last + 1), openBytes: rest.length };
  if (rest.length > 0) {
    try {
      JSON.parse(rest.toString('utf8'));
      return { bytes: tail, openBytes: 0 };
    } catch {
      // still being written
    }
  }
  return { bytes: tail.subarray(0, last + 1), openBytes: 0 };
}

/**
 * Reads what a file gained since `mark`, after checking that the part already read is unchanged
 * (SHA-256 of every byte before the mark); otherwise reads it from the start. Returns null when
 * nothing was added. The caller skips files whose size and modification time have not changed.
 * `hashFromStart: false`: bytes read from the start are not hashed here, and the new mark's `prefixHash` is left
 * empty for the caller, who hashes them elsewhere (the SHA-256 of `bytes`).
 */
export function readIncrement(
  path: string,
  mark: ReadMark | undefined,
  options: { hashFromStart?: boolean; maxLineBytes?: number } = {},
): Increment | null {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    const size = stat.size;
    let hash = createHash('sha256');
    let start = 0;
    let firstLine = 0;
    let restarted = false;
    if (mark && mark.offset > 0) {
      if (size >= mark.offset) hashRange(fd, mark.offset, hash);
      if (size >= mark.offset && hash.copy().digest('hex') === mark.prefixHash) {
        if (size === mark.offset) return null;
        start = mark.offset;
        firstLine = mark.lines;
      } else {
        restarted = true;
        hash = createHash('sha256');
      }
    }
    const maxLineBytes = options.maxLineBytes ?? defaultParams.stream.maxLineBytes;
    // An open last line past the limit is not even read: memory stays bounded by the complete lines.
    const openAt = openLineStart(fd, start, size, maxLineBytes);
    const { bytes, openBytes } =
      openAt === null
        ? completePart(readRange(fd, start, size, true), maxLineBytes)
        : { bytes: readRange(fd, start, openAt, true), openBytes: size - openAt };
    // Bytes read from the start make the whole of the new mark's hash, which a caller may take elsewhere.
    const hashed = start > 0 || options.hashFromStart !== false;
    if (hashed) hash.update(bytes);
    // A last line consumed without its newline (a whole JSON value) ends at the newline that comes next.
    const closesOpenLine = start > 0 && bytes[0] === 10 && readRange(fd, start - 1, start)[0] !== 10;
    const parseFrom = closesOpenLine ? 1 : 0;
    const body = bytes.subarray(parseFrom);
    const endsOpen = body.length > 0 && body[body.length - 1] !== 10;
    const lines = firstLine + countLines(body) + (endsOpen ? 1 : 0);
    return {
      restarted,
      start,
      firstLine,
      bytes,
      parseFrom,
      mark: { offset: start + bytes.length, lines, prefixHash: hashed ? hash.digest('hex') : '' },
      size,
      mtimeMs: stat.mtimeMs,
      ...(openBytes > 0 ? { openLine: { line: lines + 1, bytes: openBytes } } : {}),
    };
  } finally {
    closeSync(fd);
  }
}
