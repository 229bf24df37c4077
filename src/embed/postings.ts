/** The entries a posting list makes room for when it is first posted to. */
const initialRoom = 8;

/**
 * Per dimension, a list of (slot, value) entries, each list a run of two arrays shared by all dimensions: an index
 * allocates a few arrays as it grows, not a few per dimension (allocating typed arrays by the hundred thousand
 * was a large part of building the night's indexes). A list that outgrows its run moves to the end.
 */
export class Postings<Values extends Float32Array | Float64Array> {
  /** Per dimension: where its run starts, how many entries it holds, and how many it has room for. */
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
  private readonly rooms: Int32Array;
  slots = new Int32Array(initialRoom * 4);
  values: Values;
  private end = 0;
  private readonly allocate: (n: number) => Values;

  constructor(dims: number, allocate: (n: number) => Values) {
    this.starts = new Int32Array(dims);
    this.lengths = new Int32Array(dims);
    this.rooms = new Int32Array(dims);
    this.allocate = allocate;
    this.values = allocate(initialRoom * 4);
  }

  /** Appends an entry to dimension d's list; its place there. */
  push(d: number, slot: number, value: number): number {
    const length = this.lengths[d]!;
    if (length === this.rooms[d]!) this.move(d, length);
    const at = this.starts[d]! + length;
    this.slots[at] = slot;
    this.values[at] = value;
    this.lengths[d] = length + 1;
    return length;
  }

  private move(d: number, length: number): void {
    const room = Math.max(initialRoom, this.rooms[d]! * 2);
    if (this.end + room > this.slots.length) {
      let capacity = this.slots.length * 2;
      while (this.end + room > capacity) capacity *= 2;
      const slots = new Int32Array(capacity);
      slots.set(this.slots.subarray(0, this.end));
      this.slots = slots;
      const values = this.allocate(capacity);
      values.set(this.values.subarray(0, this.end));
      this.values = values;
    }
    const start = this.starts[d]!;
    this.slots.copyWithin(this.end, start, start + length);
    this.values.copyWithin(this.end, start, start + length);
    this.starts[d] = this.end;
    this.rooms[d] = room;
    this.end += room;
  }
}
