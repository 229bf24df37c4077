import { describe, expect, it } from 'vitest';
import { append } from '../../src/core/index.ts';

describe('append', () => {
  it('appends more items than one call can take as arguments, in order, to the list it returns', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => i);
    expect(() => [0].push(...items)).toThrow(RangeError);
    const list = [-1];
    expect(append(list, items)).toBe(list);
    expect(list).toHaveLength(200_001);
    expect(list.slice(0, 3)).toEqual([-1, 0, 1]);
    expect(list.at(-1)).toBe(199_999);
  });

  it('takes any iterable', () => {
    expect(append(['a'], new Set(['b', 'c']))).toEqual(['a', 'b', 'c']);
  });
});
