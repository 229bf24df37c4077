import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../src/core/index.ts';
import { dot, hashedVector, LinkageIndex, sparseOf, VectorSum } from '../../src/embed/index.ts';

const dims = defaultParams.hashedDims;
const words = [
  'install',
  'migrate',
  'deploy',
  'branch',
  'test',
  'lint',
  'cache',
  'pnpm',
  'npm',
  'uv',
  'pip',
  'not',
];
const text = fc
  .array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 })
  .map((list) => list.join(' '));

describe('LinkageIndex', () => {
  it('gives, bit for bit, the linkage a VectorSum gives, for every slot over the cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 12 }),
        text,
        fc.double({ min: -0.2, max: 0.9, noNaN: true }),
        (groups, query, cut) => {
          const index = new LinkageIndex(dims);
          const sums = groups.map((group) => {
            const slot = index.open();
            const vectors = group.map((member) => hashedVector(member, dims));
            for (const v of vectors) index.add(slot, sparseOf(v));
            return VectorSum.of(vectors, dims);
          });
          const q = hashedVector(query, dims);
          const hits = index.query(sparseOf(q), cut);
          const expected = sums
            .map((sum, slot) => ({ slot, linkage: sum.linkageToVector(q) }))
            .filter((hit) => hit.linkage >= cut)
            .sort((a, b) => b.linkage - a.linkage || a.slot - b.slot);
          expect(hits).toEqual(expected);
        },
      ),
    );
  });

  it('keeps each sum to the last bit as vectors and sums of vectors are added and taken out', () => {
    const step = fc.oneof(
      fc.record({ add: text }),
      fc.record({ addSum: fc.array(text, { minLength: 2, maxLength: 4 }) }),
      fc.record({ takeOut: fc.nat() }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(step, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 10 }),
        fc.array(text, { minLength: 1, maxLength: 3 }),
        fc.double({ min: -0.2, max: 0.9, noNaN: true }),
        (slots, query, cut) => {
          const index = new LinkageIndex(dims);
          const sums = slots.map((steps) => {
            const slot = index.open();
            const sum = new VectorSum(dims);
            const added: Float32Array[] = [];
            for (const change of steps) {
              if ('add' in change) {
                const v = hashedVector(change.add, dims);
                index.add(slot, sparseOf(v));
                sum.add(v);
                added.push(v);
              } else if ('addSum' in change) {
                // A sum's float64 entries, most of them not float32 numbers.
                const group = VectorSum.of(
                  change.addSum.map((member) => hashedVector(member, dims)),
                  dims,
                );
                index.add(slot, group.sparseSum(), group.count);
                sum.addSum(group);
              } else if (added.length > 0 && sum.count > 1) {
                const [v] = added.splice(change.takeOut % added.length, 1);
                index.subtract(slot, sparseOf(v!));
                sum.remove(v!);
              }
            }
            return sum;
          });
          const q = VectorSum.of(
            query.map((member) => hashedVector(member, dims)),
            dims,
          );
          const hits = index.query(q.sparseSum(), cut, q.count);
          const expected = sums
            .map((sum, slot) => ({ slot, linkage: sum.linkageTo(q) }))
            .filter((hit) => hit.linkage >= cut && sums[hit.slot]!.count > 0)
            .sort((a, b) => b.linkage - a.linkage || a.slot - b.slot);
          expect(hits).toEqual(expected);
        },
      ),
    );
  });

  it('follows a slot as vectors are added and taken out, and forgets a closed slot', () => {
    const index = new LinkageIndex(dims);
    const a = hashedVector('pnpm install fails on the lockfile', dims);
    const b = hashedVector('use uv instead of pip for installs', dims);
    const first = index.open();
    const second = index.open();
    index.add(first, sparseOf(a));
    index.add(second, sparseOf(b));
    expect(index.query(sparseOf(a), 0.99).map((hit) => hit.slot)).toEqual([first]);
    index.subtract(first, sparseOf(a));
    index.add(first, sparseOf(b));
    expect(index.query(sparseOf(b), 0.99).map((hit) => hit.slot)).toEqual([first, second]);
    index.close(second);
    expect(index.query(sparseOf(b), 0.99).map((hit) => hit.slot)).toEqual([first]);
    expect(index.size).toBe(2);
  });

  it('never matches a slot emptied by taking out all it had, at any cut', () => {
    const index = new LinkageIndex(dims);
    const a = sparseOf(hashedVector('pnpm install fails on the lockfile', dims));
    const emptied = index.open();
    const kept = index.open();
    index.add(emptied, a);
    index.add(kept, a);
    index.subtract(emptied, a);
    expect(index.query(a, 0.5).map((hit) => hit.slot)).toEqual([kept]);
    expect(index.query(a, -1).map((hit) => hit.slot)).toEqual([kept]);
    index.add(emptied, a, 2);
    expect(index.query(a, 0.4).map((hit) => hit.slot)).toEqual([kept, emptied]);
  });

  it('divides by the size of a query that is itself a sum (the linkage between two sets)', () => {
    const index = new LinkageIndex(dims);
    const left = ['npm test fails', 'npm test failed again'].map((t) => hashedVector(t, dims));
    const right = ['the npm test fails', 'npm tests fail'].map((t) => hashedVector(t, dims));
    const slot = index.open();
    for (const v of right) index.add(slot, sparseOf(v));
    const leftSum = VectorSum.of(left, dims);
    const [hit] = index.query(leftSum.sparseSum(), -1, leftSum.count);
    const pairs = left.flatMap((x) => right.map((y) => dot(x, y)));
    expect(hit!.linkage).toBeCloseTo(pairs.reduce((s, x) => s + x, 0) / pairs.length, 12);
    expect(hit!.linkage).toBe(leftSum.linkageTo(VectorSum.of(right, dims)));
  });

  it('grows past its first capacity and keeps every slot', () => {
    const index = new LinkageIndex(dims);
    const vectors = Array.from({ length: 300 }, (_, i) =>
      hashedVector(`lesson number ${i} about deploys`, dims),
    );
    for (const v of vectors) index.add(index.open(), sparseOf(v));
    const hits = index.query(sparseOf(vectors[277]!), 0.999);
    expect(hits[0]).toEqual({ slot: 277, linkage: expect.closeTo(1, 6) });
    expect(index.query(sparseOf(vectors[0]!), -1)).toHaveLength(300);
  });
});
