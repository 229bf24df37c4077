import { describe, expect, it } from 'vitest';
import { type EstimateInput, estimateKernel } from '../../src/hook/index.ts';
import { seeded } from '../helpers/random.ts';

interface Case {
  starts: Uint32Array;
  rows: Uint32Array;
  steps: Int8Array;
  scale: Float32Array;
  dimensions: number[];
  weights: number[];
  unit: number;
  slack: number;
  limit: number;
}

/** Random posting lists over a block of `count` rows; some steps name a row past the block. */
function randomCase(random: () => number): Case {
  const dims = 8 + Math.floor(random() * 120);
  const count = 1 + Math.floor(random() * 400);
  const lists = Array.from({ length: dims }, () => [] as number[]);
  for (let row = 0; row < count; row++) {
    for (let d = 0; d < dims; d++) if (random() < 0.15) lists[d]!.push(row);
  }
  if (random() < 0.3) lists[Math.floor(random() * dims)]!.push(count + Math.floor(random() * 10));
  const starts = new Uint32Array(dims + 1);
  lists.forEach((list, d) => {
    starts[d + 1] = starts[d]! + list.length;
  });
  const rows = Uint32Array.from(lists.flat());
  const steps = Int8Array.from(rows, () => Math.floor(random() * 255) - 127);
  const scale = Float32Array.from({ length: count }, () => random() * 0.02);
  const dimensions = [
    ...new Set(Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * dims))),
  ].sort((a, b) => a - b);
  const weights = dimensions.map(() => Math.floor(random() * 4_000_000) - 2_000_000);
  return {
    starts,
    rows,
    steps,
    scale,
    dimensions,
    weights,
    unit: random() * 1e-7,
    slack: random() * 0.2,
    limit: random() - 0.3,
  };
}

/** The same estimate in JavaScript, as the prime index reads it without WebAssembly. */
function inJavaScript(c: Case): { sums: Int32Array; found: number[] } {
  const sums = new Int32Array(c.scale.length);
  c.dimensions.forEach((d, k) => {
    for (let j = c.starts[d]!; j < c.starts[d + 1]!; j++)
      sums[c.rows[j]!] = sums[c.rows[j]!]! + c.steps[j]! * c.weights[k]!;
  });
  const found: number[] = [];
  sums.forEach((sum, row) => {
    if (!(c.scale[row]! * (c.unit * sum + c.slack) < c.limit)) found.push(row);
  });
  return { sums, found };
}

function inKernel(c: Case): { sums: Int32Array; found: number[] } {
  const count = c.scale.length;
  let next = 0;
  const place = (bytes: number) => {
    const at = next;
    next += (bytes + 7) & ~7;
    return at;
  };
  const at = {
    starts: place(c.starts.byteLength),
    rows: place(c.rows.byteLength),
    steps: place(c.steps.byteLength),
    scale: place(c.scale.byteLength),
    dimensions: place(4 * c.dimensions.length),
    weights: place(4 * c.dimensions.length),
    sums: place(4 * count),
    found: place(4 * count),
  };
  const kernel = estimateKernel(next);
  if (!kernel) throw new Error('this runtime has no WebAssembly');
  const put = (offset: number, values: ArrayBufferView) =>
    kernel
      .view(offset, values.byteLength)
      .set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  put(at.starts, c.starts);
  put(at.rows, c.rows);
  put(at.steps, c.steps);
  put(at.scale, c.scale);
  put(at.dimensions, Uint32Array.from(c.dimensions));
  put(at.weights, Int32Array.from(c.weights));
  // What was in the room for the sums before must not count.
  kernel.view(at.sums, 4 * count).fill(0xab);
  const input: EstimateInput = {
    ...at,
    count,
    k: c.dimensions.length,
    unit: c.unit,
    slack: c.slack,
    limit: c.limit,
  };
  const found = kernel.estimate(input);
  const sums = kernel.view(at.sums, 4 * count);
  const rows = kernel.view(at.found, 4 * found);
  return {
    sums: new Int32Array(sums.buffer.slice(sums.byteOffset, sums.byteOffset + 4 * count)),
    found: Array.from(new Uint32Array(rows.buffer, rows.byteOffset, found)),
  };
}

describe('the estimate kernel', () => {
  it('sums and screens exactly as the same loops in JavaScript, over random posting lists', () => {
    const random = seeded(5);
    let found = 0;
    for (let n = 0; n < 300; n++) {
      const c = randomCase(random);
      const expected = inJavaScript(c);
      const got = inKernel(c);
      expect(got.sums).toEqual(expected.sums);
      expect(got.found).toEqual(expected.found);
      found += got.found.length;
    }
    // Both sides of the bound were met.
    expect(found).toBeGreaterThan(300);
  });

  it('finds nothing in an empty block and for an empty query', () => {
    const empty: Case = {
      starts: new Uint32Array(5),
      rows: new Uint32Array(0),
      steps: new Int8Array(0),
      scale: new Float32Array(3).fill(0.01),
      dimensions: [],
      weights: [],
      unit: 1e-7,
      slack: 0,
      limit: 0.3,
    };
    expect(inKernel(empty)).toEqual(inJavaScript(empty));
    expect(inKernel(empty).found).toEqual([]);
  });
});
