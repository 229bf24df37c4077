import { describe, expect, it } from 'vitest';
import { percentile } from '../../src/core/index.ts';

describe('percentile', () => {
  it('takes the nearest rank of a sorted copy, and is null for no values', () => {
    const values = [40, 10, 30, 20];
    expect(percentile(values, 0.5)).toBe(20);
    expect(percentile(values, 0.51)).toBe(30);
    expect(percentile(values, 0.95)).toBe(40);
    expect(percentile(values, 0)).toBe(10);
    expect(values).toEqual([40, 10, 30, 20]);
    expect(percentile([], 0.5)).toBeNull();
  });
});
