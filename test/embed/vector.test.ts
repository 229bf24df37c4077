import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cosine, fromBlob, normalize, relevance, toBlob, VectorSum } from '../../src/embed/index.ts';

const DIMS = 16;

/** Random unit vectors from a seed (mulberry32), so a failure replays exactly. */
function unitVectors(seed: number, count: number, dims = DIMS): Float32Array[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => normalize(Array.from({ length: dims }, () => random() * 2 - 1)));
}

function meanBetween(a: Float32Array[], b: Float32Array[]): number {
  let sum = 0;
  for (const x of a) for (const y of b) sum += cosine(x, y);
  return sum / (a.length * b.length);
}

function meanWithin(a: Float32Array[]): number {
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      sum += cosine(a[i]!, a[j]!);
      pairs++;
    }
  }
  return sum / pairs;
}

describe('cosine', () => {
  it('is 1 for the same direction, -1 for the opposite, 0 for orthogonal', () => {
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [-3, 0])).toBe(-1);
    expect(cosine([1, 0], [0, 5])).toBe(0);
  });

  it('is 0, never NaN, for a zero vector or vectors of two spaces', () => {
    expect(cosine([0, 0, 0], [1, 2, 3])).toBe(0);
    expect(cosine(new Float32Array(4), new Float32Array(4))).toBe(0);
    expect(cosine([1, 0, 0], [1, 0])).toBe(0);
    expect(cosine([], [])).toBe(0);
  });
});

describe('relevance', () => {
  it('rescales the cosine to 0–1 above the floor', () => {
    expect(relevance(0.35, 0.35)).toBe(0);
    expect(relevance(0.2, 0.35)).toBe(0);
    expect(relevance(1, 0.35)).toBe(1);
    expect(relevance(0.675, 0.35)).toBeCloseTo(0.5, 12);
    expect(relevance(0.4, 0)).toBeCloseTo(0.4, 12);
    expect(relevance(-0.4, 0)).toBe(0);
    expect(relevance(Number.NaN, 0)).toBe(0);
  });
});

describe('blobs', () => {
  it('round-trips a vector as little-endian float32', () => {
    const v = unitVectors(7, 1, 256)[0]!;
    const blob = toBlob(v);
    expect(blob.byteLength).toBe(1024);
    expect(blob.readFloatLE(4)).toBe(v[1]);
    expect(fromBlob(blob, 256)).toEqual(v);
    expect(fromBlob(blob)).toEqual(v);
  });

  it('reads a blob that sits inside a larger buffer', () => {
    const v = Float32Array.of(0.6, -0.8);
    const larger = Buffer.concat([Buffer.from([9, 9, 9]), toBlob(v)]);
    expect(fromBlob(larger.subarray(3))).toEqual(v);
  });

  it('detects a corrupt blob', () => {
    const blob = toBlob(Float32Array.of(0.6, 0.8, 0));
    expect(fromBlob(blob.subarray(0, 10))).toBeNull();
    expect(fromBlob(blob, 4)).toBeNull();
    const nan = Buffer.from(blob);
    nan.writeFloatLE(Number.NaN, 4);
    expect(fromBlob(nan)).toBeNull();
    const infinite = Buffer.from(blob);
    infinite.writeFloatLE(Number.POSITIVE_INFINITY, 0);
    expect(fromBlob(infinite)).toBeNull();
  });
});

describe('VectorSum: average linkage by sums', () => {
  const sizes = fc.record({
    seed: fc.nat(),
    a: fc.integer({ min: 1, max: 30 }),
    b: fc.integer({ min: 1, max: 30 }),
  });

  it('mean cosine between two sets = dot(ΣA, ΣB) / (|A|·|B|)', () => {
    fc.assert(
      fc.property(sizes, ({ seed, a, b }) => {
        const setA = unitVectors(seed, a);
        const setB = unitVectors(seed + 1, b);
        expect(VectorSum.of(setA).linkageTo(VectorSum.of(setB))).toBeCloseTo(meanBetween(setA, setB), 5);
      }),
    );
  });

  it('mean cosine within a set = (|Σ|² − n) / (n(n−1))', () => {
    fc.assert(
      fc.property(sizes, ({ seed, a }) => {
        const set = unitVectors(seed, a + 1);
        expect(VectorSum.of(set).linkageWithin()).toBeCloseTo(meanWithin(set), 5);
      }),
    );
  });

  it('mean cosine of one vector to a set', () => {
    fc.assert(
      fc.property(sizes, ({ seed, a }) => {
        const [v, ...set] = unitVectors(seed, a + 1);
        expect(VectorSum.of(set, DIMS).linkageToVector(v!)).toBeCloseTo(meanBetween([v!], set), 5);
      }),
    );
  });

  it('stays exact as members come and go', () => {
    fc.assert(
      fc.property(sizes, ({ seed, a, b }) => {
        const kept = unitVectors(seed, a + 1);
        const passing = unitVectors(seed + 2, b);
        const total = VectorSum.of(kept);
        for (const v of passing) total.add(v);
        for (const v of passing) total.remove(v);
        expect(total.count).toBe(kept.length);
        expect(total.linkageWithin()).toBeCloseTo(meanWithin(kept), 5);
      }),
    );
  });

  it('counts a zero vector (an empty text) as a member at cosine 0 to all', () => {
    const set = [...unitVectors(3, 5), new Float32Array(DIMS)];
    const other = [new Float32Array(DIMS), ...unitVectors(4, 3)];
    expect(VectorSum.of(set).linkageWithin()).toBeCloseTo(meanWithin(set), 5);
    expect(VectorSum.of(set).linkageTo(VectorSum.of(other))).toBeCloseTo(meanBetween(set, other), 5);
  });

  it('is 0 where there is no pair, and refuses another space', () => {
    const one = VectorSum.of(unitVectors(5, 1));
    expect(one.linkageWithin()).toBe(0);
    expect(new VectorSum(DIMS).linkageTo(one)).toBe(0);
    expect(new VectorSum(DIMS).linkageToVector(unitVectors(5, 1)[0]!)).toBe(0);
    expect(one.linkageToVector(new Float32Array(8))).toBe(0);
    expect(() => one.add(new Float32Array(8))).toThrow(RangeError);
    expect(() => new VectorSum(DIMS).remove(new Float32Array(DIMS))).toThrow(RangeError);
  });

  it('gives the direction of the mean as a unit vector', () => {
    const centroid = VectorSum.of([Float32Array.of(1, 0), Float32Array.of(0, 1)]).centroid();
    expect(centroid[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(centroid[1]).toBeCloseTo(Math.SQRT1_2, 6);
  });
});
