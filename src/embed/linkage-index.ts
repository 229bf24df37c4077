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
 * For each dimension, a posting list holds the slots whose sum has ever touched it and their value there, side
 * by side, so a query reads each list in order (random reads into per-dimension columns were most of its time).
 * A query walks only its own non-zero dimensions' lists: with hashed texts (a few dozen of 256 dimensions each)
 * that is a small part of the entries; with a dense model space it is every slot once per dimension, which is
 * what a scan costs anyway.
 *
 * The linkages are exact and bit for bit those of `VectorSum`: each sum is accumulated in float64 in the order
 * the vectors were added, and a query adds the products in ascending dimension order, skipping only zeros.
 */
export class LinkageIndex {
  readonly dims: number;
  private capacity = initialCapacity;
  private slots = 0;
  /** Per dimension: each slot's place in the posting list, plus one (0: not posted). */
  private places: Int32Array[];
  private postedSlots: Int32Array[];
  private postedValues: Float64Array[];
  private postingLengths: Int32Array;
  private counts = new Float64Array(initialCapacity);
  private live = new Uint8Array(initialCapacity);
  private accumulator = new Float64Array(initialCapacity);
  /** Per slot: its count while it is live with members, else infinity, so one product screens it out. */
  private floors = new Float64Array(initialCapacity).fill(unmatched);

  constructor(dims: number) {
    this.dims = dims;
    this.places = Array.from({ length: dims }, () => new Int32Array(initialCapacity));
    this.postedSlots = Array.from({ length: dims }, () => new Int32Array(8));
    this.postedValues = Array.from({ length: dims }, () => new Float64Array(8));
    this.postingLengths = new Int32Array(dims);
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
    const { accumulator, counts, live } = this;
    // Most slots share some dimension with a text, so one pass over all of them beats tracking which were met.
    accumulator.fill(0, 0, n);
    const { indices, values } = vector;
    for (let i = 0; i < indices.length; i++) {
      const d = indices[i]!;
      const x = values[i]!;
      const slots = this.postedSlots[d]!;
      const sums = this.postedValues[d]!;
      const length = this.postingLengths[d]!;
      for (let p = 0; p < length; p++) {
        const slot = slots[p]!;
        accumulator[slot] = accumulator[slot]! + sums[p]! * x;
      }
    }
    const hits: IndexHit[] = [];
    // A product screens every slot (a division costs several); the few that pass are decided by the exact
    // linkage. The margin is far wider than any rounding, so the screen never turns away a slot over the cut.
    const screen = cut - 1e-9 * Math.abs(cut) - 1e-12;
    const { floors } = this;
    if (screen > 0) {
      // One array and one product per slot: a slot that is closed or has no members has an infinite floor.
      const scaled = screen * members;
      for (let slot = 0; slot < n; slot++) {
        const floor = floors[slot]!;
        if (accumulator[slot]! < scaled * floor || floor === unmatched) continue;
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
    const { indices, values } = vector;
    for (let i = 0; i < indices.length; i++) {
      const d = indices[i]!;
      const places = this.places[d]!;
      let place = places[slot]! - 1;
      if (place < 0) {
        place = this.post(d, slot);
        places[slot] = place + 1;
      }
      const sums = this.postedValues[d]!;
      sums[place] = sign === 1 ? sums[place]! + values[i]! : sums[place]! - values[i]!;
    }
  }

  /** A new entry (value 0) for the slot in dimension d's list; its place. */
  private post(d: number, slot: number): number {
    const length = this.postingLengths[d]!;
    if (length === this.postedSlots[d]!.length) {
      const slots = new Int32Array(length * 2);
      slots.set(this.postedSlots[d]!);
      this.postedSlots[d] = slots;
      const sums = new Float64Array(length * 2);
      sums.set(this.postedValues[d]!);
      this.postedValues[d] = sums;
    }
    this.postedSlots[d]![length] = slot;
    this.postingLengths[d] = length + 1;
    return length;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const widen = <T extends Float64Array | Uint8Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.places = this.places.map((places) => widen(places, (n) => new Int32Array(n)));
    this.counts = widen(this.counts, (n) => new Float64Array(n));
    this.live = widen(this.live, (n) => new Uint8Array(n));
    this.floors = widen(this.floors, (n) => new Float64Array(n).fill(unmatched));
    this.accumulator = new Float64Array(capacity);
    this.capacity = capacity;
  }
}
