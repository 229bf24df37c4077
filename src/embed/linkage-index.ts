import { Postings } from './postings.ts';
import type { SparseVector } from './vector.ts';

/** One entry found by a query: its slot and its dot product with the query, divided by its count. */
export interface IndexHit {
  slot: number;
  linkage: number;
}

const initialCapacity = 16;
/** The floor of a slot no query matches. */
const unmatched = Number.POSITIVE_INFINITY;
/**
 * Many running sums of vectors (a lesson's sources, a waiting surprise), stored dimension by dimension so that
 * one query reaches all of them at the cost of the entries it shares with them, not the cost of every slot.
 *
 * For each dimension, posting lists hold the slots whose sum has ever touched it and their value there, side
 * by side, so a query reads each list in order (random reads into per-dimension columns were most of its time).
 * A query walks only its own non-zero dimensions' lists: with hashed texts (a few dozen of 256 dimensions each)
 * that is a small part of the entries; with a dense model space it is every slot once per dimension, which is
 * what a scan costs anyway. A value that is exactly a float32, as every entry of a sum of one float32 vector is,
 * is posted in a float32 list, which a query reads at two thirds of the bytes; the others in a float64 list.
 *
 * The linkages are exact and bit for bit those of `VectorSum`: each sum is accumulated in float64 in the order
 * the vectors were added, and a query adds the products in ascending dimension order, skipping only zeros.
 */
export class LinkageIndex {
  readonly dims: number;
  private capacity = initialCapacity;
  private slots = 0;
  private narrow: Postings<Float32Array>;
  private wide: Postings<Float64Array>;
  /**
   * Where a slot's entries are, as codes: place + 1 in the float32 list, −(place + 1) in the float64 list, 0 not
   * posted. A slot's first vector writes its codes as (dimension, code) pairs into `firstCodes`, which is all most
   * slots ever get; a slot added to again gets a row of codes by dimension in `rows`. A row for every slot would
   * cost dims × 4 bytes each, most of them zeros.
   */
  private firstStarts = new Int32Array(initialCapacity);
  private firstLengths = new Int32Array(initialCapacity);
  private firstCodes = new Int32Array(initialCapacity * 32);
  private firstCodesEnd = 0;
  /** Per slot: its row in `rows`, or −1. */
  private rowOf = new Int32Array(initialCapacity).fill(-1);
  private rows: Int32Array;
  private rowCount = 0;
  private counts = new Float64Array(initialCapacity);
  private live = new Uint8Array(initialCapacity);
  private accumulator = new Float64Array(initialCapacity);
  /** Per slot: its count while it is live with members, else infinity, so one product screens it out. */
  private floors = new Float64Array(initialCapacity).fill(unmatched);

  constructor(dims: number) {
    this.dims = dims;
    this.narrow = new Postings(dims, (n) => new Float32Array(n));
    this.wide = new Postings(dims, (n) => new Float64Array(n));
    this.rows = new Int32Array(4 * dims);
  }

  /** How many slots were ever opened (removed ones included): the next slot's number. */
  get size(): number {
    return this.slots;
  }

  /** A new, empty slot (count 0, matched by nothing until something is added). */
  open(): number {
    if (this.slots === this.capacity) this.grow();
    const slot = this.slots++;
    this.live[slot] = 1;
    return slot;
  }

  /** Adds a vector, given by its non-zero entries, to a slot's sum, and counts it as one member. */
  add(slot: number, vector: SparseVector, members = 1): void {
    this.addEntries(slot, vector, 1);
    this.counts[slot] = this.counts[slot]! + members;
    this.setFloor(slot);
  }

  /** Takes a vector added before out of the slot's sum. */
  subtract(slot: number, vector: SparseVector, members = 1): void {
    this.addEntries(slot, vector, -1);
    this.counts[slot] = this.counts[slot]! - members;
    this.setFloor(slot);
  }

  /** The slot is never matched again. */
  close(slot: number): void {
    this.live[slot] = 0;
    this.setFloor(slot);
  }

  /**
   * Every live slot with members whose sum meets the query at `dot(sum, query) / (count · members) ≥ cut`, where
   * `members` is how many vectors the query sums (1 for one vector): strongest first, then by slot. Slots that
   * share no dimension with the query have linkage 0 and are found only when cut ≤ 0.
   */
  query(vector: SparseVector, cut: number, members = 1): IndexHit[] {
    const n = this.slots;
    const { accumulator, counts, live, narrow, wide } = this;
    // Most slots share some dimension with a text, so one pass over all of them beats tracking which were met.
    accumulator.fill(0, 0, n);
    const { indices, values } = vector;
    const narrowSlots = narrow.slots;
    const narrowValues = narrow.values;
    const wideSlots = wide.slots;
    const wideValues = wide.values;
    for (let i = 0; i < indices.length; i++) {
      const d = indices[i]!;
      const x = values[i]!;
      // A slot's value is in one of the two lists of a dimension (a zero left behind in the float32 list adds
      // nothing), so its products still come in ascending dimension.
      let start = narrow.starts[d]!;
      let end = start + narrow.lengths[d]!;
      let p = start;
      // Four entries a turn: the loop's own work was a large part of each entry's cost.
      for (; p + 3 < end; p += 4) {
        const s0 = narrowSlots[p]!;
        const s1 = narrowSlots[p + 1]!;
        const s2 = narrowSlots[p + 2]!;
        const s3 = narrowSlots[p + 3]!;
        accumulator[s0] = accumulator[s0]! + narrowValues[p]! * x;
        accumulator[s1] = accumulator[s1]! + narrowValues[p + 1]! * x;
        accumulator[s2] = accumulator[s2]! + narrowValues[p + 2]! * x;
        accumulator[s3] = accumulator[s3]! + narrowValues[p + 3]! * x;
      }
      for (; p < end; p++) {
        const slot = narrowSlots[p]!;
        accumulator[slot] = accumulator[slot]! + narrowValues[p]! * x;
      }
      start = wide.starts[d]!;
      end = start + wide.lengths[d]!;
      for (p = start; p < end; p++) {
        const slot = wideSlots[p]!;
        accumulator[slot] = accumulator[slot]! + wideValues[p]! * x;
      }
    }
    const hits: IndexHit[] = [];
    // A product screens every slot (a division costs several); the few that pass are decided by the exact
    // linkage. The margin is far wider than any rounding, so the screen never turns away a slot over the cut.
    const screen = cut - 1e-9 * Math.abs(cut) - 1e-12;
    const { floors } = this;
    if (screen > 0 && members > 0) {
      // One array and one product per slot: a slot that is closed or has no members has an infinite floor, and
      // scaled · ∞ is more than any sum. Four slots a turn, as few pass.
      const scaled = screen * members;
      let slot = 0;
      for (; slot + 3 < n; slot += 4) {
        if (
          accumulator[slot]! < scaled * floors[slot]! &&
          accumulator[slot + 1]! < scaled * floors[slot + 1]! &&
          accumulator[slot + 2]! < scaled * floors[slot + 2]! &&
          accumulator[slot + 3]! < scaled * floors[slot + 3]!
        )
          continue;
        for (let one = slot; one < slot + 4; one++) {
          if (accumulator[one]! < scaled * floors[one]!) continue;
          const linkage = accumulator[one]! / (counts[one]! * members);
          if (linkage >= cut) hits.push({ slot: one, linkage });
        }
      }
      for (; slot < n; slot++) {
        if (accumulator[slot]! < scaled * floors[slot]!) continue;
        const linkage = accumulator[slot]! / (counts[slot]! * members);
        if (linkage >= cut) hits.push({ slot, linkage });
      }
    } else {
      for (let slot = 0; slot < n; slot++) {
        const count = counts[slot]!;
        const denominator = count * members;
        if (count <= 0 || accumulator[slot]! < screen * denominator || live[slot] === 0) continue;
        const linkage = accumulator[slot]! / denominator;
        if (linkage >= cut) hits.push({ slot, linkage });
      }
    }
    return hits.sort((a, b) => b.linkage - a.linkage || a.slot - b.slot);
  }

  private setFloor(slot: number): void {
    const count = this.counts[slot]!;
    this.floors[slot] = count > 0 && this.live[slot] === 1 ? count : unmatched;
  }

  private addEntries(slot: number, vector: SparseVector, sign: 1 | -1): void {
    if (this.rowOf[slot]! < 0 && this.firstLengths[slot] === 0) {
      this.addFirst(slot, vector, sign);
      return;
    }
    const row = this.rowOf[slot]! < 0 ? this.makeRow(slot) : this.rowOf[slot]! * this.dims;
    const { narrow, wide, rows } = this;
    const { indices, values } = vector;
    for (let i = 0; i < indices.length; i++) {
      const d = indices[i]!;
      const x = values[i]!;
      const code = rows[row + d]!;
      if (code < 0) {
        const at = wide.starts[d]! - code - 1;
        wide.values[at] = sign === 1 ? wide.values[at]! + x : wide.values[at]! - x;
        continue;
      }
      let sum: number;
      if (code > 0) {
        const at = narrow.starts[d]! + code - 1;
        sum = sign === 1 ? narrow.values[at]! + x : narrow.values[at]! - x;
        if (Math.fround(sum) === sum) {
          narrow.values[at] = sum;
          continue;
        }
        // The entry moves to the float64 list; the zero left behind adds nothing to any sum (x + ±0 is x).
        narrow.values[at] = 0;
      } else {
        sum = sign === 1 ? 0 + x : 0 - x;
        if (Math.fround(sum) === sum) {
          rows[row + d] = narrow.push(d, slot, sum) + 1;
          continue;
        }
      }
      rows[row + d] = -(wide.push(d, slot, sum) + 1);
    }
  }

  /** Posts the first vector of a slot, whose entries are all new. */
  private addFirst(slot: number, vector: SparseVector, sign: 1 | -1): void {
    const { indices, values } = vector;
    const { narrow, wide } = this;
    const needed = this.firstCodesEnd + 2 * indices.length;
    if (needed > this.firstCodes.length) {
      let length = this.firstCodes.length * 2;
      while (needed > length) length *= 2;
      const firstCodes = new Int32Array(length);
      firstCodes.set(this.firstCodes.subarray(0, this.firstCodesEnd));
      this.firstCodes = firstCodes;
    }
    const { firstCodes } = this;
    let end = this.firstCodesEnd;
    this.firstStarts[slot] = end;
    this.firstLengths[slot] = indices.length;
    for (let i = 0; i < indices.length; i++) {
      const d = indices[i]!;
      const sum = sign === 1 ? 0 + values[i]! : 0 - values[i]!;
      firstCodes[end++] = d;
      firstCodes[end++] =
        Math.fround(sum) === sum ? narrow.push(d, slot, sum) + 1 : -(wide.push(d, slot, sum) + 1);
    }
    this.firstCodesEnd = end;
  }

  /** A row of codes for a slot added to again, filled from its first vector's; where the row starts. */
  private makeRow(slot: number): number {
    const { dims } = this;
    if ((this.rowCount + 1) * dims > this.rows.length) {
      const rows = new Int32Array(this.rows.length * 2);
      rows.set(this.rows);
      this.rows = rows;
    }
    this.rowOf[slot] = this.rowCount;
    const row = this.rowCount++ * dims;
    const { rows, firstCodes } = this;
    const start = this.firstStarts[slot]!;
    const end = start + 2 * this.firstLengths[slot]!;
    for (let at = start; at < end; at += 2) rows[row + firstCodes[at]!] = firstCodes[at + 1]!;
    return row;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const widen = <T extends Float64Array | Uint8Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.firstStarts = widen(this.firstStarts, (n) => new Int32Array(n));
    this.firstLengths = widen(this.firstLengths, (n) => new Int32Array(n));
    this.rowOf = widen(this.rowOf, (n) => new Int32Array(n).fill(-1));
    this.counts = widen(this.counts, (n) => new Float64Array(n));
    this.live = widen(this.live, (n) => new Uint8Array(n));
    this.floors = widen(this.floors, (n) => new Float64Array(n).fill(unmatched));
    this.accumulator = new Float64Array(capacity);
    this.capacity = capacity;
  }
}
