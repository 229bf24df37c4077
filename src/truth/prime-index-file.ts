import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LessonKind } from '../core/types.ts';

/**
 * The prime index on disk, and its reader. A hook reads only what its moment needs: the small header, one
 * block for the person's own lessons and one for the project at hand (the other projects' are never read),
 * and only for the few rows that can reach the priming cut, the float32 vector and the lesson's text.
 *
 * ```
 * "RPIX" · version u32 · header length u32 · header (JSON: space, dims, count, kinds, groups, sections) · to 4 bytes
 * one block per group, n rows each, little-endian:
 *   order · kind · sources · afterHandback · detail start · detail length   (u32 columns of n)
 *   scale                                                                   (f32 column of n)
 *   the int8 vectors, round(v / scale) with scale = max |v| / 127, dimension by dimension, either
 *     dense:    dims × n bytes · to 4 bytes
 *     postings: the non-zero steps only (a hashed vector has a few dozen of 256): where each dimension's
 *               list starts (u32 × dims + 1), the rows (u32 each), the steps (int8 each) · to 4 bytes
 * float32  count × dims × 4  every vector itself, row by row
 * details  one JSON object per row: { hashes, text }
 * ```
 * The person's own lessons come first, then one group per project. `order` is a row's place in the
 * projection, so a reader that joins two groups sees the lessons in the order the store would give them;
 * `kind` is an index into the header's kinds, plus QUESTION for an open question. With postings a prompt's
 * estimate visits only the rows that share one of its dimensions, not every step of every row.
 */
export const PRIME_INDEX_FILE = 'prime-index.bin';
export const PRIME_INDEX_MAGIC = 'RPIX';
export const PRIME_INDEX_VERSION = 2;
export const QUESTION = 0x100;
/** The columns of a block, in order: six u32 and the f32 scale. */
export const COLUMNS = 7;

export interface PrimeIndexGroup {
  /** Null: the person's own lessons, which reach every project. */
  project: string | null;
  /** The group's first row, counted over the whole index. */
  start: number;
  count: number;
  /** Where the group's block starts, from the end of the header, and its length. */
  offset: number;
  bytes: number;
}

export interface PrimeIndexHeader {
  space: string;
  dims: number;
  writtenAt: string;
  count: number;
  kinds: LessonKind[];
  vectors: 'dense' | 'postings';
  groups: PrimeIndexGroup[];
  /** Offsets from the end of the header. */
  sections: { float32: number; details: number; end: number };
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

const align4 = (n: number) => (n + 3) & ~3;

/** Where the blocks start: after the lead and the header, at a multiple of 4. */
export function bodyStart(headerLength: number): number {
  return align4(12 + headerLength);
}

/** The size of a group's block of `count` rows, dense or with `postings` non-zero steps. */
export function blockBytes(count: number, dims: number, postings?: number): number {
  const vectors =
    postings === undefined ? align4(dims * count) : 4 * (dims + 1) + 4 * postings + align4(postings);
  return COLUMNS * 4 * count + vectors;
}

interface Bytes {
  read(offset: number, length: number): Buffer;
  close(): void;
}

/** Reads straight from an open file: a hook process reads a few hundred kilobytes, not the whole index. */
function fileBytes(fd: number): Bytes {
  return {
    read(offset, length) {
      // A buffer of its own: the typed arrays over it start at 0, aligned.
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

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The header, or null when the bytes are not this version of the format (an older build's index, a torn write). */
function parseHeader(bytes: Bytes, size: number): { header: PrimeIndexHeader; body: number } | null {
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
  if (header.vectors !== 'dense' && header.vectors !== 'postings') return null;
  let rows = 0;
  let offset = 0;
  for (const group of groups) {
    if (group.start !== rows || group.offset !== offset || !isCount(group.count)) return null;
    if (
      !isCount(group.bytes) ||
      group.bytes < blockBytes(group.count, dims, header.vectors === 'dense' ? undefined : 0)
    )
      return null;
    rows += group.count;
    offset += group.bytes;
  }
  if (rows !== count || sections.float32 !== align4(offset)) return null;
  if (sections.details !== sections.float32 + count * dims * 4) return null;
  const body = bodyStart(length);
  if (!isCount(sections.end) || sections.end < sections.details || body + sections.end !== size) return null;
  return { header, body };
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A u32 or f32 column of `count` values at `at` in `block`: a view where the machine reads little-endian. */
function column<T extends Uint32Array | Float32Array>(
  block: Buffer,
  at: number,
  count: number,
  Kind: { new (buffer: ArrayBufferLike, offset: number, length: number): T; new (length: number): T },
): T {
  if (littleEndian) return new Kind(block.buffer, block.byteOffset + at, count);
  const copy = new Kind(count);
  const float = copy instanceof Float32Array;
  for (let i = 0; i < count; i++)
    copy[i] = float ? block.readFloatLE(at + i * 4) : block.readUInt32LE(at + i * 4);
  return copy;
}

interface Block {
  start: number;
  count: number;
  order: Uint32Array;
  kind: Uint32Array;
  sources: Uint32Array;
  afterHandback: Uint32Array;
  detailStart: Uint32Array;
  detailLength: Uint32Array;
  scale: Float32Array;
  /** Adds each local row's int8 dot product with the query's non-zero components (`at`, `values`) to `sums`. */
  addSteps(sums: Float64Array, at: readonly number[], values: readonly number[]): void;
}

function readBlock(bytes: Bytes, at: number, group: PrimeIndexGroup, header: PrimeIndexHeader): Block {
  const { count } = group;
  const { dims } = header;
  const block = bytes.read(at, group.bytes);
  const u32 = (n: number) => column(block, n * 4 * count, count, Uint32Array);
  const vectors = COLUMNS * 4 * count;
  return {
    start: group.start,
    count,
    order: u32(0),
    kind: u32(1),
    sources: u32(2),
    afterHandback: u32(3),
    detailStart: u32(4),
    detailLength: u32(5),
    scale: column(block, 6 * 4 * count, count, Float32Array),
    addSteps:
      header.vectors === 'dense'
        ? denseSteps(block, vectors, count, dims)
        : postedSteps(block, vectors, dims),
  };
}

/** Dimension by dimension: component d of local row r is at d × count + r. */
function denseSteps(block: Buffer, at: number, count: number, dims: number): Block['addSteps'] {
  const steps = new Int8Array(block.buffer, block.byteOffset + at, dims * count);
  return (sums, dimensions, values) => {
    for (let k = 0; k < dimensions.length; k++) {
      const base = dimensions[k]! * count;
      const value = values[k]!;
      for (let r = 0; r < count; r++) sums[r] = sums[r]! + steps[base + r]! * value;
    }
  };
}

function postedSteps(block: Buffer, at: number, dims: number): Block['addSteps'] {
  const starts = column(block, at, dims + 1, Uint32Array);
  const total = starts[dims]!;
  if (4 * (dims + 1) + 5 * total > block.length - at) throw new Error('the prime index ends early');
  for (let d = 0; d < dims; d++) {
    if (starts[d]! > starts[d + 1]!) throw new Error('the prime index lists its steps out of order');
  }
  const rows = column(block, at + 4 * (dims + 1), total, Uint32Array);
  const steps = new Int8Array(block.buffer, block.byteOffset + at + 4 * (dims + 1) + 4 * total, total);
  return (sums, dimensions, values) => {
    for (let k = 0; k < dimensions.length; k++) {
      const d = dimensions[k]!;
      const value = values[k]!;
      for (let j = starts[d]!; j < starts[d + 1]!; j++) sums[rows[j]!] = sums[rows[j]!]! + steps[j]! * value;
    }
  };
}

function rowsOf(header: PrimeIndexHeader, body: number, bytes: Bytes, project: string | null): PrimeRows {
  const { dims, kinds, sections } = header;
  const blocks = header.groups
    .filter((group) => group.count > 0 && (group.project === null || group.project === project))
    .map((group) => readBlock(bytes, body + group.offset, group, header));
  const count = blocks.reduce((sum, block) => sum + block.count, 0);
  // Each block is in the projection's order: merged by `order`, the rows read as the store gives them.
  const blockOf = new Uint8Array(count);
  const localOf = new Uint32Array(count);
  const cursors = blocks.map(() => 0);
  for (let row = 0; row < count; row++) {
    let pick = 0;
    let least = Number.POSITIVE_INFINITY;
    for (let b = 0; b < blocks.length; b++) {
      const at = cursors[b]!;
      const block = blocks[b]!;
      if (at < block.count && block.order[at]! < least) {
        least = block.order[at]!;
        pick = b;
      }
    }
    blockOf[row] = pick;
    localOf[row] = cursors[pick]!;
    cursors[pick]! += 1;
  }
  const kindOf = (row: number) => blocks[blockOf[row]!]!.kind[localOf[row]!]!;
  const details = new Map<number, { hashes: string[]; text: string }>();
  return {
    count,
    kind(row) {
      const kind = kinds[kindOf(row) & ~QUESTION];
      if (kind === undefined) throw new Error('the prime index names an unknown kind');
      return kind;
    },
    question: (row) => (kindOf(row) & QUESTION) !== 0,
    sources: (row) => blocks[blockOf[row]!]!.sources[localOf[row]!]!,
    afterHandback: (row) => blocks[blockOf[row]!]!.afterHandback[localOf[row]!]!,
    similarities(query, cut) {
      if (query.length !== dims)
        throw new Error(`the prime index holds ${dims} dimensions, the query ${query.length}`);
      // Only the query's non-zero components count (a hashed prompt has a few dozen of 256); skipping the
      // zero terms leaves every exact sum as it was, term by term.
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
      const estimates = blocks.map((block) => {
        const sums = new Float64Array(block.count);
        block.addSteps(sums, at, values);
        return sums;
      });
      const out = new Float64Array(count);
      for (let row = 0; row < count; row++) {
        const block = blocks[blockOf[row]!]!;
        const local = localOf[row]!;
        const step = block.scale[local]!;
        const estimate = estimates[blockOf[row]!]![local]! * step;
        // Each component is off by at most half a step, so the estimate is off by at most step/2 · |query|₁.
        if (estimate + step * 0.5001 * l1 + 1e-7 < cut) {
          out[row] = estimate;
          continue;
        }
        const vector = bytes.read(body + sections.float32 + (block.start + local) * dims * 4, dims * 4);
        let exact = 0;
        for (let k = 0; k < at.length; k++) exact += vector.readFloatLE(at[k]! * 4) * values[k]!;
        out[row] = exact;
      }
      return out;
    },
    detail(row) {
      let found = details.get(row);
      if (!found) {
        const block = blocks[blockOf[row]!]!;
        const local = localOf[row]!;
        const at = body + sections.details + block.detailStart[local]!;
        found = JSON.parse(bytes.read(at, block.detailLength[local]!).toString('utf8')) as {
          hashes: string[];
          text: string;
        };
        details.set(row, found);
      }
      return found;
    },
  };
}

function indexOf(header: PrimeIndexHeader, body: number, bytes: Bytes): PrimeIndex {
  const projects = new Map<string | null, PrimeRows>();
  return {
    space: header.space,
    dims: header.dims,
    writtenAt: header.writtenAt,
    rowsFor(project) {
      let rows = projects.get(project);
      if (!rows) {
        rows = rowsOf(header, body, bytes, project);
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
    let bytes = fileBytes(fd);
    if (options.keep) {
      const whole = bytes.read(0, stat.size);
      closeSync(fd);
      fd = undefined;
      bytes = memoryBytes(whole);
    }
    const parsed = parseHeader(bytes, stat.size);
    if (!parsed) {
      bytes.close();
      fd = undefined;
      return null;
    }
    const index = indexOf(parsed.header, parsed.body, bytes);
    if (options.keep) kept = { path, identity: identityOf(stat), index };
    return index;
  } catch {
    if (fd !== undefined) closeSync(fd);
    return null;
  }
}
