import { blake2b } from '@noble/hashes/blake2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { RememError } from './errors.ts';
import { collapseWhitespace, hasLoneSurrogate } from './observation.ts';
import type { Brand } from './types.ts';

/** A lesson's identity across memories: 32 lowercase hex characters. */
export type LessonHash = Brand<string, 'LessonHash'>;

const lessonHashShape = /^[0-9a-f]{32}$/;

export function isLessonHash(value: unknown): value is LessonHash {
  return typeof value === 'string' && lessonHashShape.test(value);
}

const cased = /\p{Cased}/u;
const caseIgnorable = /\p{Case_Ignorable}/u;

/**
 * Whether the capital sigma at `at` ends a word, decided as CPython decides it: skip case-ignorable
 * characters backwards and forwards, then look for a cased one. ICU checks "cased" before "ignorable",
 * so a character that is both (U+0345) would tip JavaScript's `toLowerCase` the other way.
 */
function isFinalSigma(points: readonly string[], at: number): boolean {
  let j = at - 1;
  while (j >= 0 && caseIgnorable.test(points[j]!)) j--;
  if (j < 0 || !cased.test(points[j]!)) return false;
  j = at + 1;
  while (j < points.length && caseIgnorable.test(points[j]!)) j++;
  return j === points.length || !cased.test(points[j]!);
}

/** Python's `str.lower()`: the full lowercase mapping of each code point, and Σ → ς at the end of a word. */
export function lowerLikePython(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text.toLowerCase();
  const points = Array.from(text);
  let out = '';
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    out += point === 'Σ' ? (isFinalSigma(points, i) ? 'ς' : 'σ') : point.toLowerCase();
  }
  return out;
}

/** Python's `" ".join(text.lower().split())`: the text a lesson hash is taken over. */
export function normText(text: string): string {
  return collapseWhitespace(lowerLikePython(text));
}

/**
 * BLAKE2b with a 16-byte digest (not a truncated BLAKE2b-512: the digest length is a parameter of the hash)
 * over the UTF-8 bytes of `kind + normText(text)`, as lowercase hex. Case and spacing do not change a lesson's identity.
 */
export function lessonHash(kind: string, text: string): LessonHash {
  if (hasLoneSurrogate(kind + text)) {
    throw new RememError(
      'bad_text',
      'a lesson hash needs well-formed Unicode: the text holds a lone surrogate',
    );
  }
  const bytes = new TextEncoder().encode(kind + normText(text));
  return bytesToHex(blake2b(bytes, { dkLen: 16 })) as LessonHash;
}
