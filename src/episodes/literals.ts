/**
 * The words a pattern cannot match without: for a regular expression, a set of strings one of which every match
 * contains. `text.includes` over such a set says in a few microseconds that a text matches no cue of a rule set,
 * where building the set's screen (one pattern of every cue) costs a hook process milliseconds.
 *
 * The reading is conservative: what it does not know (a class, a back-reference, an escape it does not read)
 * is a character it cannot name, and a pattern it cannot read whole gives no set (null), never a wrong one.
 */

/** What is known of the strings a part of a pattern matches. */
interface Known {
  /** Every string it can match, when they are few and known (lookarounds and anchors match ''); else null. */
  exact: string[] | null;
  /** Strings one of which every match contains (none of them empty); null when none is known. */
  needed: string[] | null;
}

/** Past this many strings an exact set is dropped: it stops being cheaper than the pattern. */
const MOST_STRINGS = 64;

const UNKNOWN: Known = { exact: null, needed: null };
const EMPTY: Known = { exact: [''], needed: null };
const literal = (text: string): Known => ({ exact: [text], needed: text ? [text] : null });

/** Escapes that stand for one known character outside a class. */
const CONTROL: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', '0': '\0' };
/** Escapes that match no character (word edges). */
/** Characters that are syntax outside a class; any other character matches itself. */
const SYNTAX = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
const QUANTIFIERS = new Set(['?', '*', '+', '{']);
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

const ZERO_WIDTH_ESCAPES = new Set(['b', 'B']);
/** Escapes that stand for one character of a class. */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S']);

class Unreadable extends Error {}

/**
 * Strings one of which every match of `source` (with `flags`) contains, or null when there is no such set to
 * be sure of (the pattern can match the empty string, ignores case, or holds what this reader does not read).
 */
export function requiredLiterals(source: string, flags: string): string[] | null {
  // Ignoring case, a literal matches forms `includes` does not see (and Unicode case folding has odd pairs).
  if (flags.includes('i')) return null;
  const reader = new Reader(source, flags.includes('u') || flags.includes('v'));
  try {
    const known = reader.alternation();
    if (!reader.done()) return null;
    const set = usable(known);
    return set ? [...new Set(set)] : null;
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
}

/** The best necessary set a part gives: its exact strings when none is empty, else what it needs. */
function usable(known: Known): string[] | null {
  if (known.exact && !known.exact.includes('')) return known.exact;
  return known.needed;
}

/** The shortest string in a set: a set of longer strings passes fewer texts. */
function shortest(set: string[]): number {
  let least = Number.POSITIVE_INFINITY;
  for (const text of set) least = Math.min(least, text.length);
  return least;
}

function better(a: string[] | null, b: string[] | null): string[] | null {
  if (!a) return b;
  if (!b) return a;
  return shortest(b) > shortest(a) ? b : a;
}

function product(a: string[], b: string[]): string[] | null {
  if (a.length * b.length > MOST_STRINGS) return null;
  if (b.length === 1) return a.map((left) => left + b[0]);
  const out: string[] = [];
  for (const left of a) for (const right of b) out.push(left + right);
  return out;
}

class Reader {
  private at = 0;
  private readonly source: string;
  private readonly unicode: boolean;

  constructor(source: string, unicode: boolean) {
    this.source = source;
    this.unicode = unicode;
  }

  done(): boolean {
    return this.at === this.source.length;
  }

  private peek(offset = 0): string {
    return this.source[this.at + offset] ?? '';
  }

  /** a|b|…: a match contains what one of the alternatives needs. */
  alternation(): Known {
    const alternatives = [this.sequence()];
    while (this.peek() === '|') {
      this.at++;
      alternatives.push(this.sequence());
    }
    if (alternatives.length === 1) return alternatives[0]!;
    let exact: string[] | null = [];
    let needed: string[] | null = [];
    for (const alternative of alternatives) {
      exact = exact && alternative.exact ? exact.concat(alternative.exact) : null;
      if (exact && exact.length > MOST_STRINGS) exact = null;
      const set = usable(alternative);
      needed = needed && set ? needed.concat(set) : null;
    }
    return { exact, needed };
  }

  /** Parts one after another: every part's needs hold, and runs of exact parts join into longer strings. */
  private sequence(): Known {
    let run: string[] = [''];
    let best: string[] | null = null;
    let whole = true;
    const close = () => {
      if (!run.includes('')) best = better(best, run);
      run = [''];
    };
    while (!this.done() && this.peek() !== '|' && this.peek() !== ')') {
      // Plain characters, read as one string: most of a cue is words.
      const plain = this.plainRun();
      const part = plain ? literal(plain) : this.quantified();
      best = better(best, part.needed);
      const joined = part.exact ? product(run, part.exact) : null;
      if (joined) run = joined;
      else {
        whole = false;
        close();
        run = part.exact ?? [''];
      }
    }
    const exact = whole ? run : null;
    close();
    return { exact, needed: best };
  }

  /**
   * Characters that stand for themselves, up to the next syntax character; the last is left for `quantified`
   * when a quantifier follows it (it repeats that character alone).
   */
  private plainRun(): string {
    const start = this.at;
    let end = start;
    while (end < this.source.length && !SYNTAX.has(this.source[end]!)) end++;
    if (end < this.source.length && QUANTIFIERS.has(this.source[end]!)) end--;
    // Under /u a character outside the basic plane is one atom: its halves are not split by a quantifier.
    if (end > start && this.unicode && isHighSurrogate(this.source.charCodeAt(end - 1))) end--;
    this.at = Math.max(start, end);
    return this.source.slice(start, this.at);
  }

  /** One atom and its quantifier: optional parts need nothing; repeated ones need what one copy needs. */
  private quantified(): Known {
    const atom = this.atom();
    const c = this.peek();
    let least: number | null = null;
    if (c === '?' || c === '*') least = 0;
    else if (c === '+') least = 1;
    else if (c === '{') {
      const bound = /^\{(\d+)(,\d*)?\}/.exec(this.source.slice(this.at));
      if (bound) {
        least = Number(bound[1]);
        this.at += bound[0].length - 1;
      } else if (this.unicode) throw new Unreadable();
    }
    if (least === null) return atom;
    this.at++;
    if (this.peek() === '?') this.at++; // lazy
    if (least === 0) return { exact: null, needed: null };
    return { exact: null, needed: usable(atom) };
  }

  private atom(): Known {
    const c = this.peek();
    this.at++;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        this.skipClass();
        return UNKNOWN;
      case '\\':
        return this.escape();
      case '.':
        return UNKNOWN;
      case '^':
      case '$':
        return EMPTY;
      case ')':
      case '|':
      case '':
        throw new Unreadable();
      case '*':
      case '+':
      case '?':
        throw new Unreadable(); // a quantifier with nothing to repeat
      default: {
        // Under /u a character outside the basic plane is one atom (a quantifier after it repeats both halves).
        if (
          this.unicode &&
          isHighSurrogate(c.charCodeAt(0)) &&
          isLowSurrogate(this.source.charCodeAt(this.at))
        ) {
          this.at++;
          return literal(c + this.source[this.at - 1]);
        }
        return literal(c);
      }
    }
  }

  private group(): Known {
    let lookaround = false;
    if (this.peek() === '?') {
      const kind = this.peek(1);
      if (kind === ':') this.at += 2;
      else if (kind === '=' || kind === '!') {
        this.at += 2;
        lookaround = true;
      } else if (kind === '<' && (this.peek(2) === '=' || this.peek(2) === '!')) {
        this.at += 3;
        lookaround = true;
      } else if (kind === '<') {
        const end = this.source.indexOf('>', this.at);
        if (end < 0) throw new Unreadable();
        this.at = end + 1;
      } else throw new Unreadable();
    }
    const inner = this.alternation();
    if (this.peek() !== ')') throw new Unreadable();
    this.at++;
    // A lookaround consumes nothing: the match's own text need not hold what it looks at.
    return lookaround ? EMPTY : inner;
  }

  private skipClass(): void {
    if (this.peek() === '^') this.at++;
    if (this.peek() === ']') this.at++; // a leading ] is a member (outside /u)
    while (!this.done() && this.peek() !== ']') {
      if (this.peek() === '\\') this.at++;
      if (this.unicode && this.peek() === '[') throw new Unreadable(); // nested classes (/v)
      this.at++;
    }
    if (this.done()) throw new Unreadable();
    this.at++;
  }

  private escape(): Known {
    const c = this.peek();
    this.at++;
    if (c === '') throw new Unreadable();
    if (ZERO_WIDTH_ESCAPES.has(c)) return EMPTY;
    if (CLASS_ESCAPES.has(c)) return UNKNOWN;
    if (c === 'p' || c === 'P') {
      if (!this.unicode) return literal(c);
      const end = this.source.indexOf('}', this.at);
      if (this.peek() !== '{' || end < 0) throw new Unreadable();
      this.at = end + 1;
      return UNKNOWN;
    }
    if (c in CONTROL && !(c === '0' && /\d/.test(this.peek()))) return literal(CONTROL[c]!);
    if (c === 'x') return this.codeUnits(/^[0-9a-fA-F]{2}/);
    if (c === 'u') {
      if (this.unicode && this.peek() === '{') {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.source.slice(this.at));
        if (!braced) throw new Unreadable();
        this.at += braced[0].length;
        return literal(String.fromCodePoint(Number.parseInt(braced[1]!, 16)));
      }
      return this.codeUnits(/^[0-9a-fA-F]{4}/);
    }
    // Back-references, control letters, named references: not read.
    if (/[0-9ck]/.test(c)) throw new Unreadable();
    // Any other escaped character is itself (\. \- \' \/ \( …); under /u only syntax characters may be escaped.
    if (/[a-zA-Z]/.test(c)) throw new Unreadable();
    return literal(c);
  }

  private codeUnits(shape: RegExp): Known {
    const digits = shape.exec(this.source.slice(this.at));
    if (!digits) throw new Unreadable();
    this.at += digits[0].length;
    return literal(String.fromCharCode(Number.parseInt(digits[0], 16)));
  }
}
