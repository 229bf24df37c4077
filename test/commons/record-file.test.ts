import { describe, expect, it } from 'vitest';
import { isNewer, readRecordFile, timeKey } from '../../src/protocol/index.ts';
import { alice, bob, day, fileOf, lesson } from './helpers.ts';

describe('timeKey', () => {
  it.each([
    ['2026-11-13', '2026-11-13T00:00:00.000000000Z'],
    ['2026-11-13T04:00', '2026-11-13T04:00:00.000000000Z'],
    ['2026-11-13T04:00:00Z', '2026-11-13T04:00:00.000000000Z'],
    ['2026-11-13T04:00:00.123456789Z', '2026-11-13T04:00:00.123456789Z'],
    ['2026-11-13T05:30:00+01:30', '2026-11-13T04:00:00.000000000Z'],
    ['2026-11-13T00:30:00-0330', '2026-11-13T04:00:00.000000000Z'],
    ['2026-12-31T23:59:60Z', '2027-01-01T00:00:00.000000000Z'],
    ['0099-01-01', '0099-01-01T00:00:00.000000000Z'],
    ['9999-12-31T23:00:00-02:00', '9999-12-31T23:59:59.999999999Z'],
    ['0000-01-01T00:30:00+01:00', '0000-01-01T00:00:00.000000000Z'],
  ])('%s sorts as %s', (iso, key) => {
    expect(timeKey(iso)).toBe(key);
  });

  it('refuses what is not a time', () => {
    for (const text of ['', 'yesterday', '2026-13-01', '2026-11-13T24:00', '2026-11-13 04:00'])
      expect(timeKey(text)).toBeNull();
  });

  it('compares times, not spellings', () => {
    expect(isNewer('2026-11-13T05:00:00+01:00', '2026-11-13T04:00:00Z')).toBe(false);
    expect(isNewer('2026-11-13T04:00:00.5Z', '2026-11-13T04:00:00Z')).toBe(true);
    expect(isNewer('2026-01-01', undefined)).toBe(true);
  });
});

describe('readRecordFile', () => {
  it('reads a file whatever its line ends, and takes its latest updated', () => {
    const lines = [lesson(alice, 0, day(3)), lesson(alice, 1, day(1))];
    for (const body of [fileOf(lines), lines.join('\n'), `${lines.join('\r\n')}\r\n`]) {
      const file = readRecordFile(alice.origin, body);
      expect(file).toMatchObject({ problem: null, refused: [], updated: day(3) });
      expect(file.records.map((record) => record.line)).toEqual(lines);
    }
  });

  it('names every refused line and keeps the rest for a caller that wants them', () => {
    const file = readRecordFile(
      alice.origin,
      fileOf([lesson(alice, 0, day(1)), '{}', lesson(bob, 0, day(1))]),
    );
    expect(file.records).toHaveLength(1);
    expect(file.refused.map((refusal) => [refusal.line, refusal.code])).toEqual([
      [2, 'version'],
      [3, 'wrong_origin'],
    ]);
  });

  it('refuses a whole file that is too large, too long or empty', () => {
    const limits = { maxRecords: 2, maxBytes: 4096 };
    expect(readRecordFile(alice.origin, 'x'.repeat(5000), { limits }).problem?.code).toBe('too_large');
    const three = fileOf([0, 1, 2].map((n) => lesson(alice, n, day(1))));
    expect(readRecordFile(alice.origin, three, { limits }).problem?.code).toBe('too_many_records');
    expect(readRecordFile(alice.origin, '').problem?.code).toBe('empty');
  });
});
