import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodePoints, type JsonValue, pythonFloat } from '../../src/protocol/index.ts';
import { hasPython, runPython } from './helpers.ts';

const pythonDumps = `
import json, sys
def floats(value, key=None):
    if isinstance(value, dict): return {k: floats(v, k) for k, v in value.items()}
    if isinstance(value, list): return [floats(v, key) for v in value]
    if key == "strength" and isinstance(value, (int, float)) and not isinstance(value, bool): return float(value)
    return value
json.dump([json.dumps(floats(v), sort_keys=True, separators=(",", ":"), ensure_ascii=False) for v in json.load(sys.stdin)], sys.stdout)
`;

describe('pythonFloat', () => {
  it.each([
    [2, '2.0'],
    [0.5, '0.5'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [123456789.123, '123456789.123'],
    [-0, '-0.0'],
    [0, '0.0'],
    [1e22, '1e+22'],
    [1.5e300, '1.5e+300'],
    [5e-324, '5e-324'],
    [0.1 + 0.2, '0.30000000000000004'],
    [-2.5, '-2.5'],
  ])('writes %s as %s', (value, text) => {
    expect(pythonFloat(value)).toBe(text);
  });

  it('refuses what JSON cannot hold', () => {
    expect(() => pythonFloat(Number.NaN)).toThrow();
    expect(() => canonicalJson({ strength: Number.POSITIVE_INFINITY })).toThrow();
  });

  it.skipIf(!hasPython)('agrees with Python repr on random doubles', () => {
    const doubles = fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), { numRuns: 2000 });
    const bits = doubles.map((x) => {
      const buffer = Buffer.alloc(8);
      buffer.writeDoubleBE(x);
      return buffer.toString('hex');
    });
    const python = runPython(
      'import json, struct, sys\njson.dump([repr(struct.unpack(">d", bytes.fromhex(h))[0]) for h in json.load(sys.stdin)], sys.stdout)',
      bits,
    ) as string[];
    expect(doubles.map(pythonFloat)).toEqual(python);
  });
});

describe('canonicalJson', () => {
  it('sorts keys, drops spaces, keeps UTF-8 as is', () => {
    expect(canonicalJson({ v: 1, b: [1, 'é'], a: { z: null, y: true } })).toBe(
      '{"a":{"y":true,"z":null},"b":[1,"é"],"v":1}',
    );
  });

  it('writes floats under the float keys with a point', () => {
    expect(canonicalJson({ strength: 2, seen: 2 }, { floatKeys: new Set(['strength']) })).toBe(
      '{"seen":2,"strength":2.0}',
    );
  });

  it('sorts by code point, as Python does, not by UTF-16 unit', () => {
    expect(compareCodePoints('\u{1f600}', '\uffff')).toBeGreaterThan(0);
    expect('\u{1f600}' < '\uffff').toBe(true);
    expect(canonicalJson({ '\u{1f600}': 1, '\uffff': 2 })).toBe('{"\uffff":2,"\u{1f600}":1}');
  });

  it('refuses a lone surrogate and integers past 2^53', () => {
    expect(() => canonicalJson({ text: 'a\udc00' })).toThrow(/surrogate/);
    expect(() => canonicalJson({ seen: 2 ** 60 })).toThrow(/range/);
  });

  it.skipIf(!hasPython)(
    'is byte for byte what Python json.dumps(sort_keys, compact, ensure_ascii=False) writes',
    () => {
      const every = Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i)).join('');
      const fixed: JsonValue[] = [
        { text: every, v: 1 },
        { text: 'line\u2028para\u2029 nel\x85 nbsp\xa0 del\x7f bom\ufeff', strength: 2 },
        { hash: 'ab', kind: 'error', parents: ['a', 'b'], seen: 3, strength: 0.1 + 0.2, text: 'ΟΔΟΣ 🚀 “q”' },
        { '\u{1f600}': 1, '\uffff': 2, é: [null, true, false, -0.5, 1e-7, 1.5e-300, 123.456] },
      ];
      const random = fc.sample(
        fc.dictionary(
          fc.string({ unit: 'binary', maxLength: 6 }),
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 20 }),
            fc.integer(),
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            fc.boolean(),
            fc.constant(null),
          ),
        ),
        { numRuns: 300 },
      ) as JsonValue[];
      const unsafeInteger = (v: JsonValue) =>
        Object.values(v as object).some((x) => Number.isInteger(x) && !Number.isSafeInteger(x));
      const values = [...fixed, ...random].filter(
        (v) => !/\p{Cs}/u.test(JSON.stringify(v)) && !unsafeInteger(v),
      );
      const ours = values.map((v) => canonicalJson(v, { floatKeys: new Set(['strength']) }));
      // Python reads each value from our JSON, so an integer-valued double arrives as an int: write those as integers.
      const theirs = runPython(pythonDumps, values) as string[];
      expect(ours).toEqual(theirs);
    },
  );
});
