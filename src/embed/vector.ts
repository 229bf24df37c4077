/** Vector math over the spaces' `Float32Array`s: cosine, relevance, storage, and linkage by sums. */
import type { VectorSumState } from '../core/index.ts';

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Cosine similarity. 0, never NaN, when either vector is zero (an empty text) or the lengths
 * differ (two spaces: their vectors are never compared).
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  if (aa === 0 || bb === 0) return 0;
  return Math.max(-1, Math.min(1, ab / Math.sqrt(aa * bb)));
}

/**
 * A cosine rescaled to 0–1 above the space's relevance floor (where unrelated texts sit),
 * so recall's weights mean the same in every space. At or below the floor: 0.
 */
export function relevance(cos: number, floor: number): number {
  if (!(cos > floor) || floor >= 1) return 0;
  return Math.min(1, (cos - floor) / (1 - floor));
}

/** A copy scaled to unit length; the zero vector stays zero. */
export function normalize(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  const norm = Math.sqrt(dot(out, out));
  if (norm === 0) return out;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}

/** Whether this machine stores a float32 in little-endian byte order, as the stored vectors are. */
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A vector as bytes for SQLite: little-endian float32, the same on every machine. */
export function toBlob(v: Float32Array): Buffer {
  if (littleEndian) return Buffer.from(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  const buf = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) buf.writeFloatLE(v[i]!, i * 4);
  return buf;
}

/**
 * A vector from its stored bytes, or null when the blob is corrupt: a length that is not whole
 * float32s (or not `dims` of them), or a value that is not finite.
 */
export function fromBlob(buf: Uint8Array, dims?: number): Float32Array | null {
  if (buf.byteLength % 4 !== 0) return null;
  const length = buf.byteLength / 4;
  if (dims !== undefined && length !== dims) return null;
  let v: Float32Array;
  if (littleEndian) {
    v = new Float32Array(length);
    new Uint8Array(v.buffer).set(buf);
  } else {
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    v = new Float32Array(length);
    for (let i = 0; i < length; i++) v[i] = view.getFloat32(i * 4, true);
  }
  for (let i = 0; i < length; i++) if (!Number.isFinite(v[i]!)) return null;
  return v;
}

/** A vector by its non-zero entries, in ascending order of dimension. */
export interface SparseVector {
  indices: Int32Array;
  /** float64 when taken from a sum, so no precision is lost on the way. */
  values: Float32Array | Float64Array;
}

export function sparseOf(v: ArrayLike<number>): SparseVector {
  const indices: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < v.length; i++) {
    if (v[i] !== 0) {
      indices.push(i);
      values.push(v[i]!);
    }
  }
  return {
    indices: Int32Array.from(indices),
    values: v instanceof Float64Array ? Float64Array.from(values) : Float32Array.from(values),
  };
}

export type { VectorSumState };

/**
 * A running sum of unit vectors and their count: the average linkage between two sets in one dot
 * product instead of |A|·|B| cosines. For unit vectors,
 *   mean cosine over A×B           = dot(ΣA, ΣB) / (|A|·|B|)
 *   mean cosine over pairs i<j of A = (|ΣA|² − Σ|a|²) / (n(n−1))
 * A zero vector (an empty text) counts as a member whose cosine with everything is 0, which the
 * same sums give, since it adds nothing to either.
 */
export class VectorSum {
  readonly dims: number;
  private readonly sum: Float64Array;
  private squares = 0;
  private n = 0;

  constructor(dims: number) {
    this.dims = dims;
    this.sum = new Float64Array(dims);
  }

  static of(vectors: readonly Float32Array[], dims?: number): VectorSum {
    const total = new VectorSum(dims ?? vectors[0]?.length ?? 0);
    for (const v of vectors) total.add(v);
    return total;
  }

  /** A sum from totals kept before (`state`), as it was to the last bit. */
  static restore(state: VectorSumState): VectorSum {
    const total = new VectorSum(state.sum.length);
    total.sum.set(state.sum);
    total.squares = state.squares;
    total.n = state.count;
    return total;
  }

  /** The running totals, to be kept and restored. */
  get state(): VectorSumState {
    return { count: this.n, squares: this.squares, sum: Float64Array.from(this.sum) };
  }

  get count(): number {
    return this.n;
  }

  add(v: ArrayLike<number>): this {
    this.check(v);
    for (let i = 0; i < this.dims; i++) this.sum[i] = this.sum[i]! + v[i]!;
    this.squares += dot(v, v);
    this.n++;
    return this;
  }

  /**
   * Takes in every member of another sum. Float64 totals of float32 members are exact while they span fewer than
   * 53 bits, as a set of unit vectors does: the result is the one adding each member would give.
   */
  addSum(other: VectorSum): this {
    if (other.dims !== this.dims) {
      throw new RangeError(`VectorSum: a sum of ${other.dims} dimensions into a sum of ${this.dims}`);
    }
    for (let i = 0; i < this.dims; i++) this.sum[i] = this.sum[i]! + other.sum[i]!;
    this.squares += other.squares;
    this.n += other.n;
    return this;
  }

  /** Takes out a vector added before. */
  remove(v: ArrayLike<number>): this {
    this.check(v);
    if (this.n === 0) throw new RangeError('VectorSum: nothing to remove');
    this.n--;
    if (this.n === 0) {
      // Start clean rather than keep the rounding left by add and remove.
      this.sum.fill(0);
      this.squares = 0;
      return this;
    }
    for (let i = 0; i < this.dims; i++) this.sum[i] = this.sum[i]! - v[i]!;
    this.squares -= dot(v, v);
    return this;
  }

  /** Mean cosine over every pair (a, b), a here and b in `other`; 0 when either is empty. */
  linkageTo(other: VectorSum): number {
    if (this.n === 0 || other.n === 0 || other.dims !== this.dims) return 0;
    return dot(this.sum, other.sum) / (this.n * other.n);
  }

  /** Mean cosine over the pairs inside this set; 0 when it has fewer than two members. */
  linkageWithin(): number {
    if (this.n < 2) return 0;
    return (dot(this.sum, this.sum) - this.squares) / (this.n * (this.n - 1));
  }

  /** Mean cosine between a unit vector and each member; 0 when empty. */
  linkageToVector(v: ArrayLike<number>): number {
    if (this.n === 0 || v.length !== this.dims) return 0;
    return dot(this.sum, v) / this.n;
  }

  /** The sum by its non-zero entries, for linkage against many other sums. */
  sparseSum(): SparseVector {
    return sparseOf(this.sum);
  }

  /** The direction of the members' mean, unit length (a lesson's vector is the mean of its sources'). */
  centroid(): Float32Array {
    return normalize(this.sum);
  }

  private check(v: ArrayLike<number>): void {
    if (v.length !== this.dims) {
      throw new RangeError(`VectorSum: a vector of ${v.length} dimensions in a sum of ${this.dims}`);
    }
  }
}
