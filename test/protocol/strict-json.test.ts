import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutSignature, scanJson } from '../../src/protocol/index.ts';

describe('scanJson', () => {
  it('finds the top-level members and where they lie', () => {
    const line = '{"a":1,"b":{"c":[1,2]},"d":"x"}';
    const scan = scanJson(line);
    expect(scan.ok && scan.members.map((m) => line.slice(m.start, m.end))).toEqual([
      '"a":1',
      '"b":{"c":[1,2]}',
      '"d":"x"',
    ]);
  });

  it.each([
    ['{"a":1,"a":2}', '"a"'],
    ['{"x":{"b":1,"b":2}}', '"b"'],
    ['[{"k":1,"k":1}]', '"k"'],
    ['{"v":1,"\\u0076":1}', '"v"'],
  ])('refuses a duplicate key anywhere: %s', (text, key) => {
    expect(scanJson(text)).toEqual({ ok: false, code: 'duplicate_key', reason: `duplicate key ${key}` });
  });

  it('reports keys out of order and whitespace', () => {
    const scan = scanJson('{"b":1, "a":2}');
    expect(scan.ok && [scan.unsorted, scan.spaced]).toEqual(['a', true]);
  });

  it('refuses nesting past 32 levels without overflowing the stack', () => {
    expect(scanJson('['.repeat(100_000))).toMatchObject({ ok: false, code: 'too_deep' });
  });

  it.each([
    '',
    '{',
    '{"a"}',
    '{"a":01}',
    "{'a':1}",
    '{"a":1,}',
    '[1,]',
    '"\t"',
    '{"a":"\\x"}',
    '{} {}',
    'nul',
    '-',
  ])('refuses what is not JSON: %j', (text) => {
    expect(scanJson(text)).toMatchObject({ ok: false, code: 'not_json' });
  });

  it('accepts exactly what JSON.parse accepts, when no key repeats', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.string(),
      fc.json().map((text) => text.slice(0, -1)),
      fc.json().map((text) => `${text} `),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let parsed: unknown;
        let valid = true;
        try {
          parsed = JSON.parse(text);
        } catch {
          valid = false;
        }
        const scan = scanJson(text);
        if (!scan.ok && scan.code !== 'not_json') return;
        expect(scan.ok).toBe(valid);
        if (scan.ok) expect(scan.value).toEqual(parsed);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('cutSignature', () => {
  const cut = (line: string) => {
    const scan = scanJson(line);
    return scan.ok ? cutSignature(line, scan.members) : 'not json';
  };

  it('cuts the member with the comma that joins it, wherever it stands', () => {
    expect(cut('{"a":1,"sig":"ff","z":2}')).toBe('{"a":1,"z":2}');
    expect(cut('{"a":1,"sig":"ff"}')).toBe('{"a":1}');
    expect(cut('{"sig":"ff","z":2}')).toBe('{"z":2}');
    expect(cut('{"sig":"ff"}')).toBe('{}');
    expect(cut('{"a":{"sig":"ff"}}')).toBe(null);
  });

  it('is not fooled by "sig" inside a string', () => {
    expect(cut('{"a":"x\\",\\"sig\\":\\"","sig":"ff"}')).toBe('{"a":"x\\",\\"sig\\":\\""}');
  });
});
