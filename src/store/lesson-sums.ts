import type { VectorSumState } from '../core/index.ts';
import type { Db } from './open.ts';

/**
 * Each lesson's sum of its sources' vectors, kept between nights (migration 10 says when a sum is dropped).
 * Stored by its non-zero entries — a hashed sum uses a few dozen of its dimensions — as little-endian uint32
 * indices followed by the float64 values, so a sum comes back to the last bit.
 */
export function encodeSum(sum: Float64Array): Buffer {
  let nonZero = 0;
  for (let i = 0; i < sum.length; i++) if (sum[i] !== 0) nonZero++;
  const bytes = Buffer.alloc(nonZero * 12);
  let at = 0;
  for (let i = 0; i < sum.length; i++) {
    if (sum[i] === 0) continue;
    bytes.writeUInt32LE(i, at * 4);
    bytes.writeDoubleLE(sum[i]!, nonZero * 4 + at * 8);
    at++;
  }
  return bytes;
}

/** The dense sum from its stored bytes, or null when they are not a sum of `dims` dimensions. */
export function decodeSum(bytes: Uint8Array, dims: number): Float64Array | null {
  if (bytes.byteLength % 12 !== 0) return null;
  const nonZero = bytes.byteLength / 12;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sum = new Float64Array(dims);
  let previous = -1;
  for (let k = 0; k < nonZero; k++) {
    const index = view.getUint32(k * 4, true);
    const value = view.getFloat64(nonZero * 4 + k * 8, true);
    if (index <= previous || index >= dims || !Number.isFinite(value)) return null;
    sum[index] = value;
    previous = index;
  }
  return sum;
}

/** A lesson's kept sum, and its first and latest source (oldest by time, then by id; null when it has none). */
export interface KeptSum {
  state: VectorSumState;
  firstSource: number | null;
  latestSource: number | null;
}

/** The kept sums of one space by lesson id; a sum that cannot be read is left out (and added up again). */
export function readLessonSums(db: Db, space: string): Map<number, KeptSum> {
  const rows = db
    .prepare(
      `SELECT lesson_id, dims, count, squares, sum, first_source, latest_source FROM lesson_sums WHERE space = ?`,
    )
    .all(space) as {
    lesson_id: number;
    dims: number;
    count: number;
    squares: number;
    sum: Buffer;
    first_source: number | null;
    latest_source: number | null;
  }[];
  const sums = new Map<number, KeptSum>();
  for (const row of rows) {
    const sum = decodeSum(row.sum, row.dims);
    const whole = Number.isInteger(row.count) && row.count >= 0 && Number.isFinite(row.squares);
    // Sources, and the first and latest of them, or none and neither.
    const ends =
      row.count > 0 ? row.first_source !== null && row.latest_source !== null : row.first_source === null;
    if (sum && whole && ends) {
      sums.set(row.lesson_id, {
        state: { count: row.count, squares: row.squares, sum },
        firstSource: row.first_source,
        latestSource: row.latest_source,
      });
    }
  }
  return sums;
}

export function writeLessonSum(db: Db, lessonId: number, space: string, kept: KeptSum): void {
  const { state } = kept;
  db.prepare(
    `INSERT OR REPLACE INTO lesson_sums (lesson_id, space, dims, count, squares, sum, first_source, latest_source)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    lessonId,
    space,
    state.sum.length,
    state.count,
    state.squares,
    encodeSum(state.sum),
    kept.firstSource,
    kept.latestSource,
  );
}
