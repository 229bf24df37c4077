/**
 * The hashed space: words and word pairs, signed feature hashing, no model.
 * Every step is a pure function of the text, so a vector is the same on every run and every machine.
 */

/** Scripts written without spaces between words: a run of them is cut into character pairs. */
const UNSPACED = String.raw`\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}`;
// Marks belong to the word: Devanagari and Thai vowel signs are marks, not letters.
const LETTER = String.raw`[\p{L}\p{N}\p{M}]`;
const APOSTROPHE = "['‘’ʼ]";
const SPACED_CHAR = `[${LETTER}--[${UNSPACED}]--${APOSTROPHE}]`;
// U+02BC (ʼ) is a letter listed under Thai among its scripts; here it is an apostrophe.
const UNSPACED_CHAR = `[[${LETTER}&&[${UNSPACED}]]--${APOSTROPHE}]`;
/**
 * Built at run time: the `v` flag (set operations) is newer than the compile target. Built on the first
 * text outside ASCII: the script sets cost milliseconds to build, more than a hook on an English prompt spends.
 */
let unicode: { term: RegExp; unspacedStart: RegExp; character: RegExp } | null = null;
function unicodePatterns(): { term: RegExp; unspacedStart: RegExp; character: RegExp } {
  unicode ??= {
    term: new RegExp(`${UNSPACED_CHAR}+|${SPACED_CHAR}+(?:${APOSTROPHE}${SPACED_CHAR}+)*`, 'gv'),
    unspacedStart: new RegExp(`^${UNSPACED_CHAR}`, 'v'),
    // A character with its marks: Thai tone and vowel marks stay on their consonant.
    character: /\P{M}\p{M}*|\p{M}+/gu,
  };
  return unicode;
}
/** Below U+0E00 (Thai) no character is of a script written without spaces. */
const FIRST_UNSPACED = 0xe00;
const APOSTROPHES = /['‘’ʼ]/;
const ASCII = /^[\x00-\x7f]*$/;
/** TERM restricted to ASCII, where it is this simple and about twice as fast. */
const ASCII_TERM = /[a-z0-9]+(?:'[a-z0-9]+)*/g;
// Elision (French, Italian): one letter or "qu" before a vowel is an article or a pronoun, not a word. Built on the
// first word with an apostrophe, as the Unicode letter class costs a hook more to build than most prompts need.
let elided: RegExp | undefined;
const VOWEL_START = /^[aeiouyhàâäéèêëîïôöûüùœæ]/;

/**
 * The terms of a text, in order: lower-cased words of spaced scripts, and overlapping character
 * pairs of scripts without spaces, so "这个不对" and "不对" share "不对".
 * Apostrophes inside a word are dropped ("don't" → "dont"); an elided article is cut ("l'erreur" → "erreur").
 */
export function tokenize(text: string): string[] {
  const ascii = ASCII.test(text);
  const patterns = ascii ? null : unicodePatterns();
  const matches = patterns
    ? text.normalize('NFKC').toLowerCase().match(patterns.term)
    : text.toLowerCase().match(ASCII_TERM);
  if (matches === null) return [];
  const terms: string[] = [];
  for (const match of matches) {
    if (ascii) {
      terms.push(match.includes("'") ? joinApostrophes(match) : match);
    } else if (match.charCodeAt(0) >= FIRST_UNSPACED && patterns?.unspacedStart.test(match)) {
      pushCharacterPairs(match, terms);
    } else {
      terms.push(APOSTROPHES.test(match) ? joinApostrophes(match) : match);
    }
  }
  return terms;
}

function pushCharacterPairs(run: string, terms: string[]): void {
  const chars = run.match(unicodePatterns().character) ?? [];
  if (chars.length === 1) {
    terms.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i]! + chars[i + 1]!);
}

function joinApostrophes(word: string): string {
  const parts = word.split(APOSTROPHES);
  const [first, second] = parts;
  if (parts.length === 2 && first !== undefined && second !== undefined) {
    elided ??= /^(?:\p{L}|qu)$/u;
    if (elided.test(first) && VOWEL_START.test(second)) return second;
  }
  return parts.join('');
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SPACE = 0x20;

/**
 * FNV-1a over the UTF-8 bytes of `text`, continuing from `state` (a lone surrogate counts as
 * U+FFFD, as TextEncoder writes it). Encoding inline avoids a buffer per term.
 */
export function fnv1a(text: string, state: number = FNV_OFFSET): number {
  let h = state;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      h = Math.imul(h ^ c, FNV_PRIME);
      continue;
    }
    if (c < 0x800) {
      h = Math.imul(h ^ (0xc0 | (c >> 6)), FNV_PRIME);
      h = Math.imul(h ^ (0x80 | (c & 0x3f)), FNV_PRIME);
      continue;
    }
    if (c >= 0xd800 && c < 0xe000) {
      const next = text.charCodeAt(i + 1);
      if (c < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        h = Math.imul(h ^ (0xf0 | (c >> 18)), FNV_PRIME);
        h = Math.imul(h ^ (0x80 | ((c >> 12) & 0x3f)), FNV_PRIME);
        h = Math.imul(h ^ (0x80 | ((c >> 6) & 0x3f)), FNV_PRIME);
        h = Math.imul(h ^ (0x80 | (c & 0x3f)), FNV_PRIME);
        continue;
      }
      c = 0xfffd;
    }
    h = Math.imul(h ^ (0xe0 | (c >> 12)), FNV_PRIME);
    h = Math.imul(h ^ (0x80 | ((c >> 6) & 0x3f)), FNV_PRIME);
    h = Math.imul(h ^ (0x80 | (c & 0x3f)), FNV_PRIME);
  }
  return h >>> 0;
}

/** MurmurHash3's finaliser: FNV-1a's low bits mix poorly, and the low bits pick the dimension. */
function mix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The 32-bit hash of a feature: one term, or two terms joined by a space ("a b"). */
export function hashFeature(feature: string): number {
  return mix(fnv1a(feature));
}

// One buffer for the counts, reused: allocating a typed array costs as much as hashing a sentence.
let scratch = new Float64Array(0);
function scratchFor(dims: number): Float64Array {
  if (scratch.length !== dims) scratch = new Float64Array(dims);
  return scratch;
}

function addFeature(sums: Float64Array, hash: number): void {
  // Bit 31 is the sign, the other 31 bits pick the dimension: the two are independent.
  const dim = (hash & 0x7fffffff) % sums.length;
  sums[dim] = sums[dim]! + (hash >>> 31 === 1 ? -1 : 1);
}

/**
 * English words that say how a sentence is built, not what it is about: articles, pronouns, prepositions,
 * auxiliaries, conjunctions, and the "no" that opens a reply. Counted as features, they made any two English texts
 * alike, and a prompt met an unrelated correction lesson at the priming cut by "the", "you", "to" and "it". Replayed
 * on the development histories, leaving them out took the items the prompt moment showed from 50 to 13 and lost no
 * repeat caught. Negations stay: "do not run the tests in parallel" is not "run the tests in parallel". Words of
 * other languages are all kept.
 */
const FUNCTION_WORDS = new Set(
  `a an the and or but if then so than as of in on at to for from by with about into over under after before between
  through during without within up down out off i me my mine we us our ours you your yours he him his she her hers it
  its they them their theirs this that these those there here is am are was were be been being do does did done have
  has had having will would shall should can could may might must what which who whom whose when where why how all
  any some each every both either neither such own same other another just also very too only even really quite lets
  thats im youre theyre ive youve weve youll no`.split(/\s+/),
);

/**
 * The hashed vector of a text: every term but the function words and every pair of neighbouring terms left,
 * signed into `dims` dimensions, L2-normalised. A text with no such terms is the zero vector.
 */
export function hashedVector(text: string, dims: number): Float32Array {
  const sums = scratchFor(dims);
  let previous: number | undefined;
  for (const term of tokenize(text)) {
    if (FUNCTION_WORDS.has(term)) continue;
    const state = fnv1a(term);
    addFeature(sums, mix(state));
    // Hashing "a b" as previous state + space + term gives the pair without building its string.
    if (previous !== undefined) addFeature(sums, mix(fnv1a(term, Math.imul(previous ^ SPACE, FNV_PRIME))));
    previous = state;
  }
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += sums[i]! * sums[i]!;
  const vector = new Float32Array(dims);
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dims; i++) {
    vector[i] = sums[i]! * scale;
    sums[i] = 0;
  }
  return vector;
}
