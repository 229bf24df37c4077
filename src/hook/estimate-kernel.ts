import { BUILT } from '../core/light.ts';

/**
 * The prime index's estimate (`PrimeRows.reaching`) over posting lists, as a WebAssembly function: a hook process runs
 * it once, and the same loops in JavaScript run once too, in V8's interpreter, several times slower than the
 * whole answer should take (and hot enough to set V8 optimizing them in the background, which the process then
 * waits for as it exits). The function is a few dozen instructions, written out below by name; V8 compiles a
 * module this small in a fraction of a millisecond.
 *
 * It does exactly what `postedEstimate` (the same loops in JavaScript, where there is no WebAssembly) does, to
 * the bit: int32 sums of int8 steps times int32 weights (wrapping alike), then for each row the float64
 * `scale × (unit × sum + slack)`, each operation rounded as JavaScript rounds it, compared with `limit`.
 */

/** The inputs, as byte offsets into the kernel's memory (u32 and f32 aligned to 4). */
export interface EstimateInput {
  /** u32 × (dims + 1): where each dimension's list starts, counted in steps. */
  starts: number;
  /** u32 per step: its row, local to the block. */
  rows: number;
  /** int8 per step. */
  steps: number;
  /** f32 per row. */
  scale: number;
  count: number;
  /** u32 × k: the query's dimensions, and their whole-unit weights (i32 × k). */
  dimensions: number;
  weights: number;
  k: number;
  unit: number;
  slack: number;
  limit: number;
  /** Room for i32 × count: each row's sum. */
  sums: number;
  /** Room for u32 × count: the rows that may reach the limit, in order. */
  found: number;
}

// Value types, and the instructions used, by their names in the WebAssembly specification.
const I32 = 0x7f;
const F64 = 0x7c;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  tee: (local: number) => [0x22, local],
  i32Load: [0x28, 2, 0],
  i32LoadAt4: [0x28, 2, 4],
  f32Load: [0x2a, 2, 0],
  i32Load8s: [0x2c, 0, 0],
  i32Store: [0x36, 2, 0],
  i32Const: (value: number) => [0x41, ...signedLeb(value)],
  i32Eqz: [0x45],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  f64Lt: [0x63],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  f64Add: [0xa0],
  f64Mul: [0xa2],
  f64FromI32: [0xb7],
  f64FromF32: [0xbb],
};

function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

function signedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const name = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
const section = (id: number, content: number[]) => [id, ...unsignedLeb(content.length), ...content];
const vector = (items: number[][]) => [...unsignedLeb(items.length), ...items.flat()];

// The function's parameters and locals, by number.
const [STARTS, ROWS, STEPS, SCALE, COUNT, DIMENSIONS, WEIGHTS, K, UNIT, SLACK, LIMIT, SUMS, FOUND] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
];
const [Q, WEIGHT, J, END, ADDRESS, ROW, FOUND_COUNT] = [13, 14, 15, 16, 17, 18, 19];
const PARAMETERS = [I32, I32, I32, I32, I32, I32, I32, I32, F64, F64, F64, I32, I32];

/** `base + index × 4` */
const element = (base: number, index: number) => [
  ...op.get(base),
  ...op.get(index),
  ...op.i32Const(2),
  ...op.i32Shl,
  ...op.i32Add,
];
/** `local += 1` */
const step = (local: number) => [...op.get(local), ...op.i32Const(1), ...op.i32Add, ...op.set(local)];
/** `while (local < bound) { body; local += 1 }` */
const whileBelow = (local: number, bound: number, body: number[]) => [
  ...op.block,
  ...op.loop,
  ...op.get(local),
  ...op.get(bound),
  ...op.i32GeU,
  ...op.brIf(1),
  ...body,
  ...step(local),
  ...op.br(0),
  ...op.end,
  ...op.end,
];
/** The same loop, with local starting at 0. */
const countTo = (local: number, bound: number, body: number[]) => [
  ...op.i32Const(0),
  ...op.set(local),
  ...whileBelow(local, bound, body),
];

/** The function's code. */
const functionBody = () => [
  // Every sum starts at 0.
  ...countTo(ROW, COUNT, [...element(SUMS, ROW), ...op.i32Const(0), ...op.i32Store]),
  // For each of the query's dimensions, each step in its list adds step × weight to its row's sum.
  ...countTo(Q, K, [
    ...element(DIMENSIONS, Q),
    ...op.i32Load,
    ...op.i32Const(2),
    ...op.i32Shl,
    ...op.get(STARTS),
    ...op.i32Add,
    ...op.tee(ADDRESS),
    ...op.i32Load,
    ...op.set(J),
    ...op.get(ADDRESS),
    ...op.i32LoadAt4,
    ...op.set(END),
    ...element(WEIGHTS, Q),
    ...op.i32Load,
    ...op.set(WEIGHT),
    // sums[rows[j]] += steps[j] × weight, for a row the block holds
    ...whileBelow(J, END, [
      ...element(ROWS, J),
      ...op.i32Load,
      ...op.tee(ROW),
      ...op.get(COUNT),
      ...op.i32LtU,
      ...op.if,
      ...element(SUMS, ROW),
      ...op.tee(ADDRESS),
      ...op.get(ADDRESS),
      ...op.i32Load,
      ...op.get(STEPS),
      ...op.get(J),
      ...op.i32Add,
      ...op.i32Load8s,
      ...op.get(WEIGHT),
      ...op.i32Mul,
      ...op.i32Add,
      ...op.i32Store,
      ...op.end,
    ]),
  ]),
  // Each row whose scale × (unit × sum + slack) is not below the limit is found.
  ...countTo(ROW, COUNT, [
    ...element(SCALE, ROW),
    ...op.f32Load,
    ...op.f64FromF32,
    ...op.get(UNIT),
    ...element(SUMS, ROW),
    ...op.i32Load,
    ...op.f64FromI32,
    ...op.f64Mul,
    ...op.get(SLACK),
    ...op.f64Add,
    ...op.f64Mul,
    ...op.get(LIMIT),
    ...op.f64Lt,
    ...op.i32Eqz,
    ...op.if,
    ...element(FOUND, FOUND_COUNT),
    ...op.get(ROW),
    ...op.i32Store,
    ...step(FOUND_COUNT),
    ...op.end,
  ]),
  ...op.get(FOUND_COUNT),
  ...op.end,
];

/** The module: one function, `estimate`, over a memory it imports (`kernel.memory`). */
export function moduleBytes(): Uint8Array {
  const locals = [[7, I32]]; // Q … FOUND_COUNT
  const code = [...vector(locals), ...functionBody()];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector(PARAMETERS.map((type) => [type])), ...vector([[I32]])]])),
    ...section(2, vector([[...name('kernel'), ...name('memory'), 0x02, 0x00, 0x00]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('estimate'), 0x00, 0]])),
    ...section(10, vector([[...unsignedLeb(code.length), ...code]])),
  ]);
}

/** What is used of the WebAssembly API (the project's type libraries do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

let compiled: object | null | undefined;

/** A kernel with a memory of at least `bytes`; null where this runtime has no WebAssembly (`--jitless`). */
export function estimateKernel(bytes: number): EstimateKernel | null {
  const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
  if (compiled === undefined) {
    try {
      const made = BUILT.estimateKernel;
      compiled = wasm ? new wasm.Module(made ? Buffer.from(made, 'base64') : moduleBytes()) : null;
    } catch {
      compiled = null;
    }
  }
  if (!compiled || !wasm) return null;
  try {
    const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65_536)) });
    const instance = new wasm.Instance(compiled, { kernel: { memory } });
    return new EstimateKernel(memory, instance.exports['estimate'] as (...args: number[]) => number);
  } catch {
    return null; // no memory to be had: the estimate runs in JavaScript
  }
}

export class EstimateKernel {
  private readonly memory: WasmMemory;
  private readonly run: (...args: number[]) => number;

  constructor(memory: WasmMemory, run: (...args: number[]) => number) {
    this.memory = memory;
    this.run = run;
  }

  /** The kernel's memory, `length` bytes at `offset`: read inputs into it, read outputs from it. */
  view(offset: number, length: number): Buffer {
    return Buffer.from(this.memory.buffer, offset, length);
  }

  /** How many rows may reach the limit; they are the first of the u32 at `input.found`. */
  estimate(input: EstimateInput): number {
    return this.run(
      input.starts,
      input.rows,
      input.steps,
      input.scale,
      input.count,
      input.dimensions,
      input.weights,
      input.k,
      input.unit,
      input.slack,
      input.limit,
      input.sums,
      input.found,
    );
  }
}
