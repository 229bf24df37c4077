import { describe, expect, it } from 'vitest';
import { createClock, isoString } from '../../src/core/clock.ts';

describe('the clock', () => {
  it('writes a time as toISOString does, over four digit years, and past them', () => {
    let state = 9;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const times = [
      0, -1, 1, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000, -62_167_219_200_001,
    ];
    for (let n = 0; n < 5000; n++) times.push(Math.floor((random() - 0.3) * 2 ** 45));
    for (const time of times)
      expect(isoString(new Date(time)), String(time)).toBe(new Date(time).toISOString());
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('gives REMEM_NOW back as it was pinned, and refuses one that is not a time', () => {
    expect(createClock('2026-03-04T05:06:07.089Z').iso()).toBe('2026-03-04T05:06:07.089Z');
    expect(createClock('2026-03-04T05:06:07+02:00').iso()).toBe('2026-03-04T03:06:07.000Z');
    expect(() => createClock('yesterday')).toThrow(/REMEM_NOW/);
  });
});
