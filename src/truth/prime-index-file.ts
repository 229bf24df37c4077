import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LessonKind } from '../core/types.ts';

/**
 * The prime index on disk, and its reader. A hook reads only what its moment needs: the small header, then for
 * the project at hand the rows of its group and of the person's own lessons, their vectors as int8, and only for
 * the few rows that can reach the priming cut the float32 vector and the lesson's text.
 *
 * ```
 * "RPIX" · version u32 · header length u32 · header (JSON: space, dims, count, kinds, groups, sections)
 * (to a multiple of 4 bytes; the sections' offsets count from here)
 * rows     count × 28 bytes: order u32 · kind u8 · flags u8 · 2 spare · sources u32 · afterHandback u32
 *                            · scale f32 · detail offset u32 · detail length u32
 * int8     count × dims      round(v / scale), scale = max |v| / 127
 * float32  count × dims × 4  the vector itself, little-endian
 * details  one JSON object per row: { hashes, text }
 * ```
 * Rows are grouped by project (the person's own first); `order` is the row's place in the projection, so a
 * reader that joins two groups sees the lessons in the order the store would give them.
 */
export const PRIME_INDEX_FILE = 'prime-index.bin';
export const PRIME_INDEX_MAGIC = 'RPIX';
export const PRIME_INDEX_VERSION = 2;
export const ROW_BYTES = 28;

export interface PrimeIndexGroup {
  /** Null: the person's own lessons, which reach every project. */
  project: string | null;
  start: number;
  count: number;
}

export interface PrimeIndexHeader {
  space: string;
  dims: number;
  writtenAt: string;
  count: number;
  kinds: LessonKind[];
  groups: PrimeIndexGroup[];
  /** Byte offsets from the end of the header (rounded up to 4 bytes, so float32 rows stay aligned). */
  sections: { rows: number; int8: number; float32: number; details: number; end: number };
}

/** What a hook compares a prompt or a call with: the lessons one project may see, in the projection's order. */
export interface PrimeRows {
  readonly count: number;
  kind(row: number): LessonKind;
  question(row: number): boolean;
  /** Sources, and how many followed a reply that handed the decision back (correction lessons). */
  sources(row: number): number;
  afterHandback(row: number): number;
  /**
   * The cosine of each row with `query` (a unit vector). Exact for every row that can reach `cut`; a row
   * that cannot gets its int8 estimate, which stays below the cut.
   */
  similarities(query: Float32Array, cut: number): Float64Array;
  /** The lesson hashes (one for a lesson, two for a question) and the text shown. */
  detail(row: number): { hashes: string[]; text: string };
}

export interface PrimeIndex {
  space: string;
  dims: number;
  writtenAt: string;
  rowsFor(project: string | null): PrimeRows;
  close(): void;
}

interface Bytes {
  read(offset: number, length: number): Buffer;
  close(): void;
}

/** Reads straight from an open file: a hook process reads a few hundred kilobytes, not the whole index. */
function fileBytes(fd: number): Bytes {
  return {
    read(offset, length) {
      const buffer = Buffer.allocUnsafeSlow(length);
      let done = 0;
      while (done < length) {
        const got = readSync(fd, buffer, done, length - done, offset + done);
        if (got === 0) throw new Error('the prime index ends early');
        done += got;
      }
      return buffer;
    },
    close: () => closeSync(fd),
  };
}

function memoryBytes(whole: Buffer): Bytes {
  return {
    read(offset, length) {
      if (offset + length > whole.length) throw new Error('the prime index ends early');
      return whole.subarray(offset, offset + length);
    },
    close() {},
  };
}

/** Where the sections start: after the lead and the header, at a multiple of 4. */
export function bodyStart(headerLength: number): number {
  return (12 + headerLength + 3) & ~3;
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The header, or null when the bytes are not this version of the format (an older build's index, a torn write). */
function parseHeader(bytes: Bytes, size: number): PrimeIndexHeader | null {
  if (size < 12) return null;
  const lead = bytes.read(0, 12);
  if (lead.toString('latin1', 0, 4) !== PRIME_INDEX_MAGIC) return null;
  if (lead.readUInt32LE(4) !== PRIME_INDEX_VERSION) return null;
  const length = lead.readUInt32LE(8);
  if (12 + length > size) return null;
  const header = JSON.parse(bytes.read(12, length).toString('utf8')) as PrimeIndexHeader;
  const { dims, count, kinds, groups, sections } = header;
  if (typeof header.space !== 'string' || !isCount(dims) || dims === 0 || !isCount(count)) return null;
  if (!Array.isArray(kinds) || !Array.isArray(groups) || typeof sections !== 'object' || !sections)
    return null;
  const body = bodyStart(length);
  const expected = {
    int8: sections.rows + count * ROW_BYTES,
    float32: sections.int8 + count * dims,
    details: sections.float32 + count * dims * 4,
  };
  if (!isCount(sections.rows) || sections.int8 < expected.int8 || sections.float32 < expected.float32)
    return null;
  if (sections.float32 % 4 !== 0 || sections.details < expected.details) return null;
  if (body + sections.end !== size || sections.details > sections.end) return null;
  let covered = 0;
  for (const group of groups) {
    if (group.start !== covered || !isCount(group.count)) return null;
    covered += group.count;
  }
  if (covered !== count) return null;
  return { ...header, sections: shifted(sections, body) };
}

/** The sections' offsets from the start of the file. */
function shifted(sections: PrimeIndexHeader['sections'], by: number): PrimeIndexHeader['sections'] {
  return {
    rows: sections.rows + by,
    int8: sections.int8 + by,
    float32: sections.float32 + by,
    details: sections.details + by,
    end: sections.end + by,
  };
}

function rowsOf(header: PrimeIndexHeader, bytes: Bytes, project: string | null): PrimeRows {
  const { dims, kinds, sections } = header;
  const parts = header.groups
    .filter((group) => group.project === null || group.project === project)
    .filter((group) => group.count > 0)
    .map((group) => ({
      group,
      rows: bytes.read(sections.rows + group.start * ROW_BYTES, group.count * ROW_BYTES),
      int8: bytes.read(sections.int8 + group.start * dims, group.count * dims),
    }));
  // At most two groups, each in the projection's order: merged by `order`, the rows read as the store gives them.
  const entries: { part: (typeof parts)[number]; at: number }[] = [];
  const cursors = parts.map(() => 0);
  for (;;) {
    let pick = -1;
    let least = Number.POSITIVE_INFINITY;
    parts.forEach((part, p) => {
      const at = cursors[p]!;
      if (at < part.group.count) {
        const order = part.rows.readUInt32LE(at * ROW_BYTES);
        if (order < least) {
          least = order;
          pick = p;
        }
      }
    });
    if (pick < 0) break;
    entries.push({ part: parts[pick]!, at: cursors[pick]! });
    cursors[pick]! += 1;
  }
  const field = (row: number, offset: number) => {
    const entry = entries[row]!;
    return entry.part.rows.readUInt32LE(entry.at * ROW_BYTES + offset);
  };
  const byte = (row: number, offset: number) => {
    const entry = entries[row]!;
    return entry.part.rows[entry.at * ROW_BYTES + offset]!;
  };
  const details = new Map<number, { hashes: string[]; text: string }>();
  return {
    count: entries.length,
    kind(row) {
      const kind = kinds[byte(row, 4)];
      if (kind === undefined) throw new Error('the prime index names an unknown kind');
      return kind;
    },
    question: (row) => (byte(row, 5) & 1) === 1,
    sources: (row) => field(row, 8),
    afterHandback: (row) => field(row, 12),
    similarities(query, cut) {
      if (query.length !== dims)
        throw new Error(`the prime index holds ${dims} dimensions, the query ${query.length}`);
      // Only the query's non-zero components count (a hashed prompt has a few dozen of 256); skipping the zero
      // terms leaves every sum as it was, term by term.
      const at: number[] = [];
      const values: number[] = [];
      let l1 = 0;
      for (let i = 0; i < dims; i++) {
        const value = query[i]!;
        if (value === 0) continue;
        at.push(i);
        values.push(value);
        l1 += Math.abs(value);
      }
      const terms = at.length;
      const out = new Float64Array(entries.length);
      const views = new Map(
        parts.map((part) => [part, new Int8Array(part.int8.buffer, part.int8.byteOffset, part.int8.length)]),
      );
      for (let row = 0; row < entries.length; row++) {
        const { part, at: local } = entries[row]!;
        const steps = views.get(part)!;
        const base = local * dims;
        let sum = 0;
        for (let k = 0; k < terms; k++) sum += steps[base + at[k]!]! * values[k]!;
        const step = part.rows.readFloatLE(local * ROW_BYTES + 16);
        // Each component is off by at most half a step, so the estimate is off by at most step/2 · |query|₁.
        const estimate = sum * step;
        if (estimate + step * 0.5001 * l1 + 1e-7 < cut) {
          out[row] = estimate;
          continue;
        }
        const vector = bytes.read(sections.float32 + (part.group.start + local) * dims * 4, dims * 4);
        let exact = 0;
        for (let k = 0; k < terms; k++) exact += vector.readFloatLE(at[k]! * 4) * values[k]!;
        out[row] = exact;
      }
      return out;
    },
    detail(row) {
      let found = details.get(row);
      if (!found) {
        const entry = entries[row]!;
        const offset = entry.part.rows.readUInt32LE(entry.at * ROW_BYTES + 20);
        const length = entry.part.rows.readUInt32LE(entry.at * ROW_BYTES + 24);
        found = JSON.parse(bytes.read(sections.details + offset, length).toString('utf8')) as {
          hashes: string[];
          text: string;
        };
        details.set(row, found);
      }
      return found;
    },
  };
}

function indexOf(header: PrimeIndexHeader, bytes: Bytes): PrimeIndex {
  const projects = new Map<string | null, PrimeRows>();
  return {
    space: header.space,
    dims: header.dims,
    writtenAt: header.writtenAt,
    rowsFor(project) {
      let rows = projects.get(project);
      if (!rows) {
        rows = rowsOf(header, bytes, project);
        projects.set(project, rows);
      }
      return rows;
    },
    close: () => bytes.close(),
  };
}

/** A long-lived process (`remem serve`, the proxy) keeps the index it read until the file is replaced. */
let kept: { path: string; identity: string; index: PrimeIndex } | null = null;

const identityOf = (stat: { dev: number; ino: number; size: number; mtimeMs: number }) =>
  `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;

/**
 * The index as last written, or null when there is none or it is not this build's format: the hook then
 * reads the store. `keep`: read the file whole once and keep it in memory while the file stays the same
 * (a server); otherwise read what is asked, from the file as it was when opened (a hook process), and close.
 */
export function openPrimeIndex(home: string, options: { keep?: boolean } = {}): PrimeIndex | null {
  const path = join(home, PRIME_INDEX_FILE);
  let fd: number | undefined;
  try {
    if (options.keep && kept?.path === path && kept.identity === identityOf(statSync(path)))
      return kept.index;
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    if (options.keep) {
      const whole = fileBytes(fd).read(0, stat.size);
      closeSync(fd);
      fd = undefined;
      const bytes = memoryBytes(whole);
      const header = parseHeader(bytes, stat.size);
      if (!header) return null;
      const index = indexOf(header, bytes);
      kept = { path, identity: identityOf(stat), index };
      return index;
    }
    const bytes = fileBytes(fd);
    const header = parseHeader(bytes, stat.size);
    if (!header) {
      closeSync(fd);
      return null;
    }
    return indexOf(header, bytes);
  } catch {
    if (fd !== undefined) closeSync(fd);
    return null;
  }
}
