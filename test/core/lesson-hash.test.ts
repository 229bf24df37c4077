import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLessonHash, lessonHash, lowerLikePython, normText } from '../../src/core/index.ts';
import { hasPython, runPython } from '../protocol/helpers.ts';
import vectors from '../protocol/vectors.json' with { type: 'json' };

const pythonHashes = `
import hashlib, json, sys
out = []
for kind, text in json.load(sys.stdin):
    norm = " ".join(text.lower().split())
    out.append([norm, hashlib.blake2b((kind + norm).encode("utf-8"), digest_size=16).hexdigest()])
json.dump(out, sys.stdout)
`;

describe('lessonHash', () => {
  it.each(vectors)('matches the stored vector: $name', (vector) => {
    expect(normText(vector.text)).toBe(vector.norm);
    expect(lessonHash(vector.kind, vector.text)).toBe(vector.hash);
  });

  it('is 32 lowercase hex characters, and case and spacing do not change it', () => {
    const hash = lessonHash('error', 'The  Build\tFAILS');
    expect(isLessonHash(hash)).toBe(true);
    expect(lessonHash('error', ' the build fails ')).toBe(hash);
    expect(lessonHash('surprise', 'the build fails')).not.toBe(hash);
  });

  it('refuses a lone surrogate, which has no UTF-8 bytes', () => {
    expect(() => lessonHash('error', 'broken \ud800 text')).toThrow(/lone surrogate/);
  });

  it('lowercases Σ as CPython does, by its neighbours', () => {
    expect(lowerLikePython('ΟΔΟΣ ΣΑΣ')).toBe('οδος σας');
    expect(lowerLikePython('Σ')).toBe('σ');
    expect(lowerLikePython("AΣ'")).toBe("aς'");
    expect(lowerLikePython("AΣ'B")).toBe("aσ'b");
  });
});

describe.skipIf(!hasPython)('lessonHash against Python hashlib.blake2b(digest_size=16)', () => {
  it('agrees on every stored vector, computed afresh', () => {
    const fresh = runPython(
      pythonHashes,
      vectors.map((v) => [v.kind, v.text]),
    ) as [string, string][];
    expect(fresh.map(([, hash]) => hash)).toEqual(vectors.map((v) => v.hash));
    expect(fresh.map(([norm]) => norm)).toEqual(vectors.map((v) => v.norm));
  });

  it('agrees with Python on every code point whose lowercase Python knows', () => {
    // Python's Unicode database may be older than Node's: a code point Python calls unassigned may have gained
    // a lowercase since. Those are the only differences allowed.
    const differing = runPython(
      `
import json, sys, unicodedata
js = json.load(sys.stdin)
bad = []
for c in range(0x110000):
    if 0xd800 <= c < 0xe000: continue
    if chr(c).lower() != js.get(str(c), chr(c)) and unicodedata.category(chr(c)) != "Cn": bad.append(c)
json.dump(bad, sys.stdout)
`,
      jsLowercases(),
    );
    expect(differing).toEqual([]);
  });

  it('agrees with Python on random text, whitespace and Σ in every context', () => {
    const unknown = unassignedInPython();
    const tricky = fc.constantFrom(
      ..."ΣσςΑα\u0345\u0301\u0307'.·:İIiẞßǅ \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeffaA1Я𐐀😀",
    );
    const text = fc.oneof(
      fc.string({ unit: tricky, maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
    );
    const kind = fc.constantFrom('error', 'correction', 'surprise');
    const samples = fc
      .sample(fc.tuple(kind, text), { numRuns: 3000 })
      .filter(([, t]) => !/\p{Cs}/u.test(t) && ![...t].some((c) => unknown.has(c.codePointAt(0)!)));
    const python = runPython(pythonHashes, samples) as [string, string][];
    samples.forEach(([k, t], i) => {
      expect({ text: t, norm: normText(t), hash: lessonHash(k, t) }).toEqual({
        text: t,
        norm: python[i]![0],
        hash: python[i]![1],
      });
    });
  });
});

function jsLowercases(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let c = 0; c < 0x110000; c++) {
    if (c >= 0xd800 && c < 0xe000) continue;
    const char = String.fromCodePoint(c);
    const lower = lowerLikePython(char);
    if (lower !== char) out[c] = lower;
  }
  return out;
}

function unassignedInPython(): Set<number> {
  const listed = runPython(
    `
import json, sys, unicodedata
json.dump([c for c in range(0x110000) if unicodedata.category(chr(c)) == "Cn"], sys.stdout)
`,
    null,
  ) as number[];
  return new Set(listed);
}
