import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, defaultParams } from '../../src/core/index.ts';
import { hashedSpace, hashedVector, relevance } from '../../src/embed/index.ts';
import { type RecallIndex, type RecallItem, rankRecall, strengthShare } from '../../src/recall/index.ts';

const space = hashedSpace(defaultParams);
const dims = defaultParams.hashedDims;
const now = '2026-06-01T00:00:00.000Z';
const words = [
  'deploy',
  'migration',
  'schema',
  'pnpm',
  'lint',
  'redis',
  'timeout',
  'token',
  'auth',
  'vitest',
];

/** Every item scored by the formula, best first: what the ranking must return, however it gets there. */
function reference(index: RecallIndex, query: Float32Array, k: number): { id: number; score: number }[] {
  const w = defaultParams.recall;
  const at = new Date(now).getTime();
  return index.items
    .map((item, row) => {
      let cos = 0;
      for (let d = 0; d < dims; d++) cos += index.matrix[row * dims + d]! * query[d]!;
      // The ranking keeps each cosine as a float32.
      const rel = relevance(Math.fround(cos), space.floor);
      const recency = 0.5 ** (Math.max(0, (at - Date.parse(item.at)) / DAY_MS) / w.recencyHalfLifeDays);
      const idle = (at - Date.parse(item.since)) / DAY_MS;
      const strength = strengthShare(
        idle <= 0 ? item.strength : item.strength * 0.5 ** (idle / defaultParams.decay.halfLifeDays),
      );
      return { id: item.id, rel, score: w.relevance * rel + w.recency * recency + w.strength * strength };
    })
    .filter((hit) => hit.rel > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map(({ id, score }) => ({ id, score }));
}

describe('rankRecall', () => {
  it('returns the k best by the formula, though it passes over items that cannot reach them', () => {
    const item = fc.record({
      text: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }).map((list) => list.join(' ')),
      strength: fc.double({ min: 0, max: 6, noNaN: true }),
      ageDays: fc.integer({ min: 0, max: 400 }),
      idleDays: fc.integer({ min: -3, max: 400 }),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (rows, k) => {
          const at = (days: number) => new Date(new Date(now).getTime() - days * DAY_MS).toISOString();
          const items: RecallItem[] = rows.map((row, id) => ({
            type: 'episode',
            id,
            kind: 'error',
            text: row.text,
            title: row.text,
            at: at(row.ageDays),
            strength: row.strength,
            since: at(row.idleDays),
            project: null,
          }));
          const matrix = new Float32Array(items.length * dims);
          for (const [i, row] of rows.entries()) matrix.set(hashedVector(row.text, dims), i * dims);
          const index: RecallIndex = {
            space,
            dims,
            items,
            matrix,
            strengthCap: Float64Array.from(items, (entry) => strengthShare(entry.strength)),
          };
          const query = hashedVector('deploy migration token', dims);
          const hits = rankRecall(index, query, { k, now, params: defaultParams });
          const expected = reference(index, query, k);
          expect(hits.map((hit) => hit.score)).toEqual(expected.map((hit) => hit.score));
        },
      ),
    );
  });

  it('still finds a stronger item met after a weaker one of the same relevance and age', () => {
    const items: RecallItem[] = [1, 3].map((strength, id) => ({
      type: 'lesson',
      id,
      kind: 'correction',
      text: 'deploy with the migration token',
      title: 'deploy with the migration token',
      at: now,
      strength,
      since: now,
      project: null,
    }));
    const matrix = new Float32Array(2 * dims);
    for (const [i, item] of items.entries()) matrix.set(hashedVector(item.text, dims), i * dims);
    const index: RecallIndex = {
      space,
      dims,
      items,
      matrix,
      strengthCap: Float64Array.from(items, (item) => strengthShare(item.strength)),
    };
    const [hit] = rankRecall(index, hashedVector('deploy migration token', dims), {
      k: 1,
      now,
      params: defaultParams,
    });
    expect(hit!.item.id).toBe(1);
  });
});
