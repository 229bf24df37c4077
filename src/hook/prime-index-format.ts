import type { LessonKind } from '../core/index.ts';

/**
 * The prime index on disk: its layout, shared by the writer (`prime-index.ts`) and the reader
 * (`prime-index-file.ts`). A hook reads only what its moment needs: the small header, one
 * block for the person's own lessons and one for the project at hand (the other projects' are never read),
 * and only for the few rows that can reach the priming cut, the float32 vector and the lesson's text.
 *
 * ```
 * "RPIX" · version u32 · header length u32 · header (JSON: space, dims, count, kinds, groups, sections) · to 4 bytes
 * one block per group, n rows each, little-endian:
 *   order · kind · sources · afterOffer · detail start · detail length · subjects   (u32 columns of n)
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
 * `kind` is an index into the header's kinds, plus QUESTION for an open question; `subjects` screens what a row is
 * about (`subjects.ts`), a bit per subject. With postings a prompt's
 * estimate visits only the rows that share one of its dimensions, not every step of every row.
 */
export const PRIME_INDEX_FILE = 'prime-index.bin';
export const PRIME_INDEX_MAGIC = 'RPIX';
/**
 * 4: a correction's subjects are those of a rule of the house or a refused call only (`truth/rule-subjects.ts`),
 * and hashed vectors leave out function words; a version 3 index is read as missing until the next night.
 */
export const PRIME_INDEX_VERSION = 4;
export const QUESTION = 0x100;
/** The columns of a block, in order: seven u32 and the f32 scale. */
export const COLUMNS = 8;
/** Where the f32 scale column is. */
export const SCALE_COLUMN = 7;

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

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The header, or null when the bytes are not this version of the format (an older build's index, a torn write). */
export function parseHeader(
  read: (offset: number, length: number) => Buffer,
  size: number,
): { header: PrimeIndexHeader; body: number } | null {
  if (size < 12) return null;
  const lead = read(0, 12);
  if (lead.toString('latin1', 0, 4) !== PRIME_INDEX_MAGIC) return null;
  if (lead.readUInt32LE(4) !== PRIME_INDEX_VERSION) return null;
  const length = lead.readUInt32LE(8);
  if (12 + length > size) return null;
  const header = JSON.parse(read(12, length).toString('utf8')) as PrimeIndexHeader;
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
