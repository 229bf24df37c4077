/**
 * How a rule set reads text: each set compiled once, the first time it is needed, behind screens that say in one
 * scan when none of its cues can match; and the text as the cues read it (`normalizeText`).
 */

import { BUILT } from '../core/light.ts';
import { type CueGroup, PHONE_TYPING, type RuleSet, UNSPACED_LANGS } from './cues/index.ts';
import { requiredLiterals } from './literals.ts';
import { asciiTwin, isAscii } from './model/ascii.ts';

/** Which named rule set matched, and the pattern within it (its source). */
export interface CueHit {
  rule: string;
  cue: string;
}

/** Strings one of which every match contains, and what screens a text by them (see `holdsLiteral`). */
interface Screened {
  /** Strings one of which every match contains (`requiredLiterals`), or null: a text with none is never matched. */
  literals: readonly string[] | null;
  /** The literals as one pattern, built once they have screened `SCREENS_BEFORE_PATTERN` texts. */
  literalPattern?: RegExp;
  /** How many texts the literals screened one by one. */
  screened?: number;
}

export interface Cue extends Screened {
  rule: string;
  cue: string;
  /** The pattern as matched, and its flags: global, so a match that does not start on a word edge can be stepped past. */
  source: string;
  flags: string;
  /** Compiled on first use: behind the screens, most cues never run. */
  re?: RegExp;
  /** What reads ASCII text: the pattern's ASCII twin (`model/ascii.ts`), or the pattern when it has none. */
  asciiRe?: RegExp;
  /** Held to word edges (languages written with spaces). */
  spaced: boolean;
}

// Built on the first match a cue finds: most texts a hook reads match none.
let letter: RegExp | undefined;
// A match that ends on a letter must not run on into another; the start is checked in `nextMatch`, which keeps
// the pattern's literal opening free for the engine's fast scan.
const wordEnd = '(?:(?![\\p{L}\\p{N}])|(?<![\\p{L}\\p{N}]))';

/**
 * A rule set's cues, and what screens them: the literals of all of them, or else one pattern per set of flags,
 * the cues' alternation, that matches somewhere whenever one of the cues does. Most texts match no cue; the
 * screen says so in one scan instead of one per cue.
 */
export interface CueList extends Screened {
  cues: Cue[];
  screens: RegExp[];
  /**
   * Strings one of which every cue's match contains (`requiredLiterals`), or null when a cue gives none (the
   * list then has pattern screens, whose first use costs a process more than a few hundred `includes`).
   */
  literals: readonly string[] | null;
}

/**
 * How many texts literals screen one by one before they are joined into one pattern. A hook screens a text or two,
 * for which a few hundred `includes` cost less than building the pattern; ingest screens thousands, and the pattern
 * reads each in one scan where the literals took one scan apiece (a tenth of the time, measured).
 */
const SCREENS_BEFORE_PATTERN = 32;

/** Whether one of the literals occurs in the text (`literals` not null). */
function holdsLiteral(screened: Screened, text: string): boolean {
  if (screened.literalPattern) return screened.literalPattern.test(text);
  const literals = screened.literals!;
  // One or two strings are read as fast one by one.
  if (literals.length > 2) {
    screened.screened = (screened.screened ?? 0) + 1;
    if (screened.screened > SCREENS_BEFORE_PATTERN) screened.literalPattern = anyOf(literals);
  }
  return literals.some((literal) => text.includes(literal));
}

/** Compiles a rule set; in languages written with spaces a pattern must start and end on a word edge. */
export function compile(set: RuleSet): CueList {
  const byPattern = literalsOf(set);
  let next = 0;
  const cues = set.groups.flatMap((group) =>
    group.patterns.map((pattern) => {
      const spaced = !UNSPACED_LANGS.includes(group.lang);
      const source = spaced ? `(?:${pattern.source})${wordEnd}` : pattern.source;
      const flags = [...new Set(`${pattern.flags}gu`)].join('');
      return { rule: set.name, cue: pattern.source, source, flags, spaced, literals: byPattern[next++]! };
    }),
  );
  const every = cues.every((cue) => cue.literals !== null);
  const literals = every ? [...new Set(cues.flatMap((cue) => cue.literals!))] : null;
  // Where every cue names its literals, they are the screen, and each cue is passed over by its own: a pattern
  // screen would be one more pattern to build. Otherwise a screen leaves out the word-end check: a weaker pattern
  // still matches wherever the cue does, and that check, repeated for every cue, would cost more to compile than
  // the screen saves. A list of a few cues is its own screen.
  const byFlags = new Map<string, string[]>();
  for (const { cue, flags: cueFlags } of literals || cues.length <= 3 ? [] : cues) {
    const flags = cueFlags.replace('g', '');
    byFlags.set(flags, [...(byFlags.get(flags) ?? []), `(?:${cue})`]);
  }
  const screens = [...byFlags].map(([flags, sources]) => new RegExp(sources.join('|'), flags));
  return { cues, screens, literals };
}

/**
 * The literals of each of the set's patterns (`requiredLiterals`), in order. A bundle holds those of the named
 * sets in it, worked out when it was built (core/built.ts), and they serve a set of as many patterns (a set made
 * of some of a named set's groups has fewer); elsewhere they are worked out here.
 */
export function literalsOf(set: RuleSet): (string[] | null)[] {
  const patterns = set.groups.flatMap((group) => group.patterns);
  const made = BUILT.literals?.[set.name];
  if (made !== undefined) {
    const table = JSON.parse(made) as (string[] | null)[];
    if (table.length === patterns.length) return table;
  }
  return patterns.map((pattern) => requiredLiterals(pattern.source, pattern.flags));
}

/** False when no cue of the list matches anywhere in the text (a match the cue itself would then step past counts). */
export function mayMatch(list: CueList, text: string): boolean {
  if (list.literals) return holdsLiteral(list, text);
  return list.screens.length === 0 || list.screens.some((screen) => screen.test(text));
}

/** A pattern that matches wherever one of the strings occurs. */
function anyOf(strings: readonly string[]): RegExp {
  return new RegExp(strings.map((string) => string.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'));
}

/** The next match at or after `from` that starts on a word edge (a letter not preceded by a letter). */
export function nextMatch(cue: Cue, text: string, from: number): RegExpExecArray | null {
  // Most cues need words the text does not hold: they are passed over without building their pattern.
  if (cue.literals && !holdsLiteral(cue, text)) return null;
  cue.re ??= new RegExp(cue.source, cue.flags);
  let re = cue.re;
  if (asciiText(text)) {
    cue.asciiRe ??= twinOf(re);
    re = cue.asciiRe;
  }
  const { spaced } = cue;
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index;
    letter ??= /[\p{L}\p{N}]/u;
    const onEdge = !spaced || at === 0 || !letter.test(text[at - 1] ?? '') || !letter.test(text[at] ?? '');
    if (onEdge) return m;
    re.lastIndex = at + 1;
  }
  return null;
}

/** A pattern's ASCII twin, which reads ASCII text as the pattern does and faster; the pattern when it has none. */
function twinOf(pattern: RegExp): RegExp {
  try {
    return asciiTwin(pattern);
  } catch {
    return pattern;
  }
}

// The text the cues read last, and whether it is all ASCII: a detector reads one text with cue after cue.
let lastText: string | undefined;
let lastAscii = false;

function asciiText(text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastAscii = isAscii(text);
  }
  return lastAscii;
}

/**
 * Builds each entry on first use and keeps it: compiling every rule set costs more than a hook may spend,
 * and a hook needs one or two of them. An entry's getter gives way to the value it built, so that reading it
 * again costs what reading a property does (ingest reads them hundreds of thousands of times).
 */
export function lazily<T extends Record<string, () => unknown>>(
  makers: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const entries = {} as { readonly [K in keyof T]: ReturnType<T[K]> };
  for (const [name, make] of Object.entries(makers)) {
    Object.defineProperty(entries, name, {
      configurable: true,
      enumerable: true,
      get() {
        const value = make();
        Object.defineProperty(entries, name, { value, enumerable: true });
        return value;
      },
    });
  }
  return entries;
}

/** True if one of the group's patterns matches the text, read as the detectors read it (for tests of the examples). */
export function matchesGroup(group: CueGroup, text: string): boolean {
  const lines = normalizeLines(text);
  return compile({ name: '', groups: [group] }).cues.some((cue) => nextMatch(cue, lines, 0) !== null);
}

export function firstHit(list: CueList, text: string): CueHit | null {
  if (!mayMatch(list, text)) return null;
  for (const cue of list.cues) if (nextMatch(cue, text, 0)) return { rule: cue.rule, cue: cue.cue };
  return null;
}

/** A typed word: a whole word (letters, digits, apostrophes) that is a key of PHONE_TYPING. */
const typedWord = (letter: string) => `(?<!${letter})(?:${Object.keys(PHONE_TYPING).join('|')})(?!${letter})`;
const typing = lazily({
  phone: () => new RegExp(typedWord("[\\p{L}\\p{N}']"), 'gu'),
  // In lower-case ASCII the letters and digits are a-z and 0-9; the Unicode classes cost a hook more to build.
  asciiPhone: () => new RegExp(typedWord("[a-z0-9']"), 'g'),
});
const NON_ASCII = /[^\u0000-\u007f]/;
const apostrophes = /[\u2018\u2019\u201A\u201B\u2032\u00B4\u02BC]/g;
const doubleQuotes = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\u300C\u300D\u300E\u300F]/g;

/** The last texts normalized, newest first, with their forms: the detectors each read a message the same way. */
const normalized: { text: string; lines: string }[] = [];
const NORMALIZED_KEPT = 4;

/** Like `normalizeText`, but keeps line breaks (some cues read whole lines). */
export function normalizeLines(text: string): string {
  for (const entry of normalized) if (entry.text === text) return entry.lines;
  const lines = normalizeAnew(text);
  normalized.unshift({ text, lines });
  if (normalized.length > NORMALIZED_KEPT) normalized.pop();
  return lines;
}

function normalizeAnew(text: string): string {
  // ASCII is its own NFKC form and holds none of the marks replaced next; most agent text is ASCII.
  const isAscii = !NON_ASCII.test(text);
  const ascii = isAscii
    ? text
    : text
        .normalize('NFKC') // full-width letters, digits and punctuation → ASCII
        .replace(apostrophes, "'")
        .replace(doubleQuotes, '"')
        .replace(/\u3002/g, '. ')
        .replace(/\u3001/g, ', ');
  // Each run of spaces becomes one space and each line break sheds the spaces around it; the patterns match only
  // where that changes something, as most spaces and line breaks are already so.
  const spaced = ascii
    .toLowerCase()
    .replace(isAscii ? typing.asciiPhone : typing.phone, (word) => PHONE_TYPING[word] ?? word)
    .replace(/[^\S\n]{2,}|[^\S\n ]/g, ' ');
  return (spaced.includes('\n') ? spaced.replace(/ \n\s*|\n\s+/g, '\n') : spaced).trim();
}

/**
 * Text as the cues read it: curly quotes and apostrophes straight, full-width punctuation as ASCII, lower
 * case, whitespace collapsed, and phone typing spelled out ("dont" → "don't", "thats" → "that's", "u" → "you").
 */
export function normalizeText(text: string): string {
  return normalizeLines(text).replace(/\n/g, ' ');
}

/**
 * Leaves code out: fenced blocks and inline spans. A tail cut from a longer reply may open inside a block;
 * an odd number of fences means the first one closes a block that started before the cut.
 */
export function stripCode(text: string): string {
  let rest = text;
  // Each step runs only when the text holds what it removes.
  if (rest.includes('```') || rest.includes('~~~')) {
    const fences = rest.match(/^ {0,3}(?:```|~~~)/gm)?.length ?? 0;
    if (fences % 2 === 1) rest = rest.replace(/^[\s\S]*?^ {0,3}(?:```|~~~)[^\n]*$/m, '');
    rest = rest.replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '');
  }
  if (rest.includes('`')) rest = rest.replace(/`[^`\n]{1,300}`/g, 'code');
  if (rest.includes('*') || rest.includes('_')) rest = rest.replace(/[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}/g, '');
  return rest;
}
