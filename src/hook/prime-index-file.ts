import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LessonKind } from '../core/index.ts';
import { type EstimateKernel, estimateKernel } from './estimate-kernel.ts';
import {
  COLUMNS,
  PRIME_INDEX_FILE,
  type PrimeIndexGroup,
  type PrimeIndexHeader,
  parseHeader,
  QUESTION,
  SCALE_COLUMN,
} from './prime-index-format.ts';

// The prime index's reader; the layout is in prime-index-format.ts.

/** What a hook compares a prompt or a call with: the lessons one project may see, in the projection's order. */
export interface PrimeRows {
  readonly count: number;
  kind(row: number): LessonKind;
  question(row: number): boolean;
  /** Sources, and how many followed a reply that offered the next step back (correction lessons: `offerShare`). */
  sources(row: number): number;
  afterOffer(row: number): number;
  /** The rows whose cosine with `query` (a unit vector) is at least `cut`, with it, in the projection's order. */
  reaching(query: Float32Array, cut: number): Reached[];
  /**
   * The first `limit` rows of `kind` (no question) whose subjects' screen (`embed/subjects.ts`) shares a bit with
   * `mask`, in the projection's order.
   */
  aboutSubjects(mask: number, kind: LessonKind, limit: number): number[];
  /** The lesson hashes (one for a lesson, two for a question), the text shown, and where session start loads it. */
  detail(row: number): RowDetail;
}

export interface RowDetail {
  hashes: string[];
  text: string;
  /** The projects (null: sessions outside any) whose session start loads the row; absent when none does. */
  startOf?: (string | null)[];
}

/** A row that reached a cut, and its cosine with the query. */
export interface Reached {
  row: number;
  similarity: number;
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
  /** Reads `target.length` bytes at `offset` into `target`. */
  readInto(offset: number, target: Buffer): void;
  close(): void;
}

/** Reads straight from an open file: a hook process reads a few hundred kilobytes, not the whole index. */
function fileBytes(fd: number): Bytes {
  const readInto = (offset: number, target: Buffer) => {
    let done = 0;
    while (done < target.length) {
      const got = readSync(fd, target, done, target.length - done, offset + done);
      if (got === 0) throw new Error('the prime index ends early');
      done += got;
    }
  };
  return {
    read(offset, length) {
      // A buffer of its own: the typed arrays over it start at 0, aligned.
      const buffer = Buffer.allocUnsafeSlow(length);
      readInto(offset, buffer);
      return buffer;
    },
    readInto,
    close: () => closeSync(fd),
  };
}

function memoryBytes(whole: Buffer): Bytes {
  const read = (offset: number, length: number) => {
    if (offset + length > whole.length) throw new Error('the prime index ends early');
    return whole.subarray(offset, offset + length);
  };
  return {
    read,
    readInto: (offset, target) => target.set(read(offset, target.length)),
    close() {},
  };
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

/**
 * `values` written at `at` as little-endian 32-bit integers: as one copy where the machine is little-endian and the
 * place is aligned, else one at a time. A prompt hook writes a few hundred; a Buffer call for each cost it 0.4 ms.
 */
function writeInts(target: Buffer, at: number, values: ArrayLike<number>, signed: boolean): void {
  if (littleEndian && (target.byteOffset + at) % 4 === 0) {
    const Kind = signed ? Int32Array : Uint32Array;
    new Kind(target.buffer as ArrayBuffer, target.byteOffset + at, values.length).set(values);
    return;
  }
  for (let i = 0; i < values.length; i++) {
    if (signed) target.writeInt32LE(values[i]!, at + 4 * i);
    else target.writeUInt32LE(values[i]!, at + 4 * i);
  }
}

/** A query in whole units (see `reaching`): its non-zero dimensions, their weights, and the bound. */
interface Estimate {
  at: readonly number[];
  weights: readonly number[];
  unit: number;
  slack: number;
  limit: number;
}

interface Block {
  start: number;
  count: number;
  order: Uint32Array;
  kind: Uint32Array;
  sources: Uint32Array;
  afterOffer: Uint32Array;
  detailStart: Uint32Array;
  detailLength: Uint32Array;
  subjects: Uint32Array;
  scale: Float32Array;
}

/**
 * A block's estimate: the local rows whose int8 estimate may reach the bound, in order. Each row's dot product
 * with the query's weights, `sum`, gives `scale × (unit × sum + slack)`, at least the row's cosine; the rest
 * cannot reach it.
 */
type MayReach = (query: Estimate) => Iterable<number>;

/** A group's columns: what every hook moment reads of its rows. */
function columnsOf(bytes: Bytes, at: number, group: PrimeIndexGroup): Block {
  const { count } = group;
  const block = bytes.read(at, COLUMNS * 4 * count);
  const u32 = (n: number) => column(block, n * 4 * count, count, Uint32Array);
  return {
    start: group.start,
    count,
    order: u32(0),
    kind: u32(1),
    sources: u32(2),
    afterOffer: u32(3),
    detailStart: u32(4),
    detailLength: u32(5),
    subjects: u32(6),
    scale: column(block, SCALE_COLUMN * 4 * count, count, Float32Array),
  };
}

type AddSteps = (sums: Int32Array, at: readonly number[], weights: readonly number[]) => void;

/** The estimate in JavaScript: the sums, then each row's bound. */
function screened(scale: Float32Array, addSteps: AddSteps): MayReach {
  return ({ at, weights, unit, slack, limit }) => {
    const sums = new Int32Array(scale.length);
    addSteps(sums, at, weights);
    const found: number[] = [];
    sums.forEach((sum, local) => {
      if (!(scale[local]! * (unit * sum + slack) < limit)) found.push(local);
    });
    return found;
  };
}

/** Dimension by dimension: component d of local row r is at d × count + r. */
function denseSteps(vectors: Buffer, count: number, dims: number): AddSteps {
  if (vectors.length < dims * count) throw new Error('the prime index ends early');
  const steps = new Int8Array(vectors.buffer, vectors.byteOffset, dims * count);
  return (sums, dimensions, weights) => {
    for (let k = 0; k < dimensions.length; k++) {
      const base = dimensions[k]! * count;
      const weight = weights[k]!;
      for (let r = 0; r < count; r++) sums[r] = sums[r]! + steps[base + r]! * weight;
    }
  };
}

/** Posting lists: where each dimension's list starts, then every step's row, then every step. */
interface Postings {
  starts: Uint32Array;
  rows: Uint32Array;
  steps: Int8Array;
}

/** Where each dimension's list starts, checked against the `length` bytes of the block's postings. */
function startsOf(vectors: Buffer, dims: number, length: number): Uint32Array {
  const starts = column(vectors, 0, dims + 1, Uint32Array);
  if (4 * (dims + 1) + 5 * starts[dims]! > length) throw new Error('the prime index ends early');
  for (let d = 0; d < dims; d++) {
    if (starts[d]! > starts[d + 1]!) throw new Error('the prime index lists its steps out of order');
  }
  return starts;
}

function postings(vectors: Buffer, dims: number): Postings {
  const starts = startsOf(vectors, dims, vectors.length);
  const total = starts[dims]!;
  const rows = column(vectors, 4 * (dims + 1), total, Uint32Array);
  const steps = new Int8Array(vectors.buffer, vectors.byteOffset + 4 * (dims + 1) + 4 * total, total);
  return { starts, rows, steps };
}

/**
 * A block's posting lists of the query's dimensions alone, laid out as the block's (every other list empty) in
 * the buffer `room` gives: an estimate visits no other list, and a hook so reads a tenth of the block, not all of it
 * into memory it has never touched.
 */
function queryPostings(
  bytes: Bytes,
  at: number,
  length: number,
  dims: number,
  wanted: readonly number[],
  room: (length: number) => Buffer,
): Postings {
  const starts = startsOf(bytes.read(at, 4 * (dims + 1)), dims, length);
  const total = starts[dims]!;
  const size = new Uint32Array(dims);
  for (const d of wanted) size[d] = starts[d + 1]! - starts[d]!;
  const kept = new Uint32Array(dims + 1);
  for (let d = 0; d < dims; d++) kept[d + 1] = kept[d]! + size[d]!;
  const vectors = room(4 * (dims + 1) + 5 * kept[dims]!);
  writeInts(vectors, 0, kept, false);
  const rowsAt = 4 * (dims + 1);
  const stepsAt = rowsAt + 4 * kept[dims]!;
  for (const d of wanted) {
    if (size[d] === 0) continue;
    const from = kept[d]!;
    bytes.readInto(
      at + rowsAt + 4 * starts[d]!,
      vectors.subarray(rowsAt + 4 * from, rowsAt + 4 * (from + size[d]!)),
    );
    bytes.readInto(
      at + rowsAt + 4 * total + starts[d]!,
      vectors.subarray(stepsAt + from, stepsAt + from + size[d]!),
    );
  }
  return postings(vectors, dims);
}

function postedSteps({ starts, rows, steps }: Postings): AddSteps {
  return (sums, dimensions, weights) => {
    for (let k = 0; k < dimensions.length; k++) {
      const d = dimensions[k]!;
      const weight = weights[k]!;
      const end = starts[d + 1]!;
      for (let j = starts[d]!; j < end; j++) sums[rows[j]!] = sums[rows[j]!]! + steps[j]! * weight;
    }
  };
}

/** A kernel holding a group's blocks, and room for one query's inputs and outputs. */
interface Placed {
  kernel: EstimateKernel;
  /** Room for the query's dimensions and weights (u32 × dims each), and for the sums and the rows found (u32 × rows each). */
  dimensions: number;
  weights: number;
  sums: number;
  found: number;
}

/**
 * The estimate in the kernel, over the postings and scales read into its memory (so every view's offset is an
 * offset in that memory). A step naming a row past the block's is passed over, as a typed array passes over a
 * write past its end in the JavaScript estimate.
 */
function estimated(
  placed: Placed,
  postingsFor: (at: readonly number[]) => Postings,
  scale: Float32Array,
): MayReach {
  const { kernel } = placed;
  return ({ at, weights, unit, slack, limit }) => {
    const posted = postingsFor(at);
    const dimensions = kernel.view(placed.dimensions, 4 * at.length);
    const weighted = kernel.view(placed.weights, 4 * at.length);
    writeInts(dimensions, 0, at, false);
    writeInts(weighted, 0, weights, true);
    const found = kernel.estimate({
      starts: posted.starts.byteOffset,
      rows: posted.rows.byteOffset,
      steps: posted.steps.byteOffset,
      scale: scale.byteOffset,
      count: scale.length,
      dimensions: placed.dimensions,
      weights: placed.weights,
      k: at.length,
      unit,
      slack,
      limit,
      sums: placed.sums,
      found: placed.found,
    });
    const rows = kernel.view(placed.found, 4 * found);
    return new Uint32Array(rows.buffer, rows.byteOffset, found);
  };
}

const align8 = (n: number) => (n + 7) & ~7;

/** The bytes of a group's int8 vectors, after its columns. */
const vectorBytes = (group: PrimeIndexGroup) => group.bytes - COLUMNS * 4 * group.count;

/**
 * Each block's estimate (a moment that estimates nothing never reads the vectors): dense vectors read now, posted
 * ones as each query asks for them. They go straight into an estimate kernel's memory, with each block's scales,
 * and room after them for a query (where there is WebAssembly, and the machine reads little-endian as the index is
 * written).
 */
function estimatorsOf(
  bytes: Bytes,
  body: number,
  groups: PrimeIndexGroup[],
  blocks: Block[],
  header: PrimeIndexHeader,
): MayReach[] {
  const { dims } = header;
  const placed = header.vectors === 'postings' && littleEndian ? placeKernel(groups, dims) : null;
  let next = 0;
  const room = (length: number) => {
    const view = placed!.kernel.view(next, length);
    next += align8(length);
    return view;
  };
  return groups.map((group, g) => {
    const { count } = group;
    const block = blocks[g]!;
    const at = body + group.offset + COLUMNS * 4 * count;
    const length = vectorBytes(group);
    if (!placed) {
      if (header.vectors === 'dense')
        return screened(block.scale, denseSteps(bytes.read(at, length), count, dims));
      return screened(block.scale, (sums, wanted, weights) => {
        const posted = queryPostings(bytes, at, length, dims, wanted, Buffer.allocUnsafeSlow);
        postedSteps(posted)(sums, wanted, weights);
      });
    }
    const scale = room(4 * count);
    scale.set(new Uint8Array(block.scale.buffer, block.scale.byteOffset, 4 * count));
    const vectors = room(length);
    const posted = (wanted: readonly number[]) =>
      queryPostings(bytes, at, length, dims, wanted, (used) => vectors.subarray(0, used));
    return estimated(placed, posted, column(scale, 0, count, Float32Array));
  });
}

function placeKernel(groups: PrimeIndexGroup[], dims: number): Placed | null {
  const blocks = groups.reduce((sum, group) => sum + align8(4 * group.count) + align8(vectorBytes(group)), 0);
  const rows = Math.max(0, ...groups.map((group) => group.count));
  const dimensions = blocks;
  const weights = dimensions + align8(4 * dims);
  const sums = weights + align8(4 * dims);
  const found = sums + align8(4 * rows);
  const kernel = estimateKernel(found + 4 * rows);
  return kernel && { kernel, dimensions, weights, sums, found };
}

/** Where each row of the projection is: its block and its place there, and each block's rows' places in it. */
interface Merged {
  blockOf: Uint8Array;
  localOf: Uint32Array;
  rowOf: Uint32Array[];
}

/**
 * Each block is in the projection's order: merged by `order` (a row's place in the projection, so no two rows
 * share one), the rows read as the store gives them. The orders are copied and sorted natively; each then comes
 * from the block whose next row it is.
 */
function merge(blocks: Block[], count: number): Merged {
  const orders = new Uint32Array(count);
  let next = 0;
  for (const block of blocks) {
    orders.set(block.order, next);
    next += block.count;
  }
  orders.sort();
  const blockOf = new Uint8Array(count);
  const localOf = new Uint32Array(count);
  const rowOf = blocks.map((block) => new Uint32Array(block.count));
  const cursors = blocks.map(() => 0);
  for (let row = 0; row < count; row++) {
    let pick = 0;
    while (blocks[pick]!.order[cursors[pick]!] !== orders[row]) {
      pick++;
      if (pick === blocks.length) throw new Error('the prime index lists a row twice');
    }
    blockOf[row] = pick;
    localOf[row] = cursors[pick]!;
    rowOf[pick]![cursors[pick]!] = row;
    cursors[pick]! += 1;
  }
  return { blockOf, localOf, rowOf };
}

/** How many of a block's rows come before `order` in the projection (its orders ascend). */
function before(block: Block, order: number): number {
  let low = 0;
  let high = block.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (block.order[middle]! < order) low = middle + 1;
    else high = middle;
  }
  return low;
}

function rowsOf(header: PrimeIndexHeader, body: number, bytes: Bytes, project: string | null): PrimeRows {
  const { dims, kinds, sections } = header;
  const groups = header.groups.filter(
    (group) => group.count > 0 && (group.project === null || group.project === project),
  );
  const blocks = groups.map((group) => columnsOf(bytes, body + group.offset, group));
  let estimators: MayReach[] | undefined;
  const count = blocks.reduce((sum, block) => sum + block.count, 0);
  // The blocks are merged when a row is first asked for by its place: a prompt's answer needs only the few rows
  // that reach the cut, each placed by a search of the other blocks' orders.
  let merged: Merged | undefined;
  /** Rows placed by `reaching`: each one's block and its place in it (block × 2^32 + place). */
  const reached = new Map<number, number>();
  // Per row, without allocating (a hook reads every row of the project in the interpreter).
  const placeOf = (row: number): number => {
    if (!merged) {
      const found = reached.get(row);
      if (found !== undefined) return found;
      merged = merge(blocks, count);
    }
    return merged.blockOf[row]! * 2 ** 32 + merged.localOf[row]!;
  };
  const blockAt = (place: number) => blocks[Math.floor(place / 2 ** 32)]!;
  const localAt = (place: number) => place % 2 ** 32;
  const kindOf = (row: number) => {
    if (merged) return blocks[merged.blockOf[row]!]!.kind[merged.localOf[row]!]!;
    const place = placeOf(row);
    return blockAt(place).kind[localAt(place)]!;
  };
  const columnOf = (name: 'sources' | 'afterOffer') => (row: number) => {
    if (merged) return blocks[merged.blockOf[row]!]![name][merged.localOf[row]!]!;
    const place = placeOf(row);
    return blockAt(place)[name][localAt(place)]!;
  };
  /** A block's row placed in the projection: the rows of every block that come before it there. */
  const placed = (b: number, local: number): number => {
    const order = blocks[b]!.order[local]!;
    let row = local;
    blocks.forEach((other, o) => {
      if (o !== b) row += before(other, order);
    });
    reached.set(row, b * 2 ** 32 + local);
    return row;
  };
  const details = new Map<number, RowDetail>();
  return {
    count,
    kind(row) {
      const kind = kinds[kindOf(row) & ~QUESTION];
      if (kind === undefined) throw new Error('the prime index names an unknown kind');
      return kind;
    },
    question: (row) => (kindOf(row) & QUESTION) !== 0,
    sources: columnOf('sources'),
    afterOffer: columnOf('afterOffer'),
    reaching(query, cut) {
      if (query.length !== dims)
        throw new Error(`the prime index holds ${dims} dimensions, the query ${query.length}`);
      // Only the query's non-zero components count (a hashed prompt has a few dozen of 256); skipping the
      // zero terms leaves every exact sum as it was, term by term.
      const at: number[] = [];
      const values: number[] = [];
      let l1 = 0;
      let largest = 0;
      for (let i = 0; i < dims; i++) {
        const value = query[i]!;
        if (value === 0) continue;
        at.push(i);
        values.push(value);
        l1 += Math.abs(value);
        largest = Math.max(largest, Math.abs(value));
      }
      if (at.length === 0) {
        return cut > 0 ? [] : Array.from({ length: count }, (_, row) => ({ row, similarity: 0 }));
      }
      // The query in whole units, as fine as keeps every sum below 2^30: the int8 sums are then sums of small
      // integers, exact in any arithmetic.
      const unit = largest / Math.floor(2 ** 30 / (127 * at.length));
      const weights = values.map((value) => Math.round(value / unit));
      // A row's cosine is step × its int8 dot product with the query, each of the row's components off by at most
      // half a step (so by step × l1 / 2 in all); that product is unit × its sum, each weight off by at most half a
      // unit (so by 127 × unit / 2 per component). Both allowances, with a little for rounding, make the bound.
      const slack = 0.5001 * l1 + 0.5001 * 127 * at.length * unit;
      const limit = cut - 1e-7;
      const found: Reached[] = [];
      estimators ??= estimatorsOf(bytes, body, groups, blocks, header);
      blocks.forEach((block, b) => {
        for (const local of estimators![b]!({ at, weights, unit, slack, limit })) {
          const vector = bytes.read(body + sections.float32 + (block.start + local) * dims * 4, dims * 4);
          let exact = 0;
          for (let k = 0; k < at.length; k++) exact += vector.readFloatLE(at[k]! * 4) * values[k]!;
          if (!(exact >= cut)) continue;
          found.push({ row: placed(b, local), similarity: exact });
        }
      });
      return found.sort((x, y) => x.row - y.row);
    },
    aboutSubjects(mask, kind, limit) {
      const wanted = kinds.indexOf(kind);
      if (mask === 0 || wanted < 0 || limit <= 0) return [];
      // A block lists its rows in the projection's order: its first `limit` hits are all it can give.
      const hits: { b: number; local: number; order: number }[] = [];
      blocks.forEach((block, b) => {
        let taken = 0;
        for (let local = 0; local < block.count && taken < limit; local++) {
          if ((block.subjects[local]! & mask) === 0 || block.kind[local] !== wanted) continue;
          hits.push({ b, local, order: block.order[local]! });
          taken++;
        }
      });
      hits.sort((x, y) => x.order - y.order);
      return hits.slice(0, limit).map(({ b, local }) => placed(b, local));
    },
    detail(row) {
      let found = details.get(row);
      if (!found) {
        const place = placeOf(row);
        const block = blockAt(place);
        const local = localAt(place);
        const at = body + sections.details + block.detailStart[local]!;
        found = JSON.parse(bytes.read(at, block.detailLength[local]!).toString('utf8')) as RowDetail;
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
    const parsed = parseHeader(bytes.read, stat.size);
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

/**
 * The exact vector of each single lesson in the index as last written, by hash; empty when there is no index,
 * it is not this build's format, or it is of another space (or of other dimensions than `dims`). Where a layer's
 * lessons keep the vectors a model gave them, since the store holds none for them.
 */
export function primeIndexVectors(home: string, space: string, dims?: number): Map<string, Float32Array> {
  const found = new Map<string, Float32Array>();
  try {
    const whole = readFileSync(join(home, PRIME_INDEX_FILE));
    const bytes = memoryBytes(whole);
    const parsed = parseHeader(bytes.read, whole.length);
    if (!parsed) return found;
    const { header, body } = parsed;
    if (header.space !== space || (dims !== undefined && header.dims !== dims)) return found;
    for (const group of header.groups) {
      if (group.count === 0) continue;
      const block = columnsOf(bytes, body + group.offset, group);
      for (let local = 0; local < block.count; local++) {
        const detail = bytes.read(
          body + header.sections.details + block.detailStart[local]!,
          block.detailLength[local]!,
        );
        const { hashes } = JSON.parse(detail.toString('utf8')) as { hashes: string[] };
        if (hashes.length !== 1) continue;
        const at = body + header.sections.float32 + (block.start + local) * header.dims * 4;
        const vector = new Float32Array(header.dims);
        new Uint8Array(vector.buffer).set(bytes.read(at, header.dims * 4));
        found.set(hashes[0]!, vector);
      }
    }
  } catch {
    // no index, or one cut short: nothing carried over
  }
  return found;
}
