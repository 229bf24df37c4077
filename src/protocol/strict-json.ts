import { compareCodePoints } from './canonical.ts';

/** A member of the top-level object: where its key's opening quote starts and where its value ends. */
export interface Member {
  key: string;
  start: number;
  end: number;
}

export type ScanProblem = 'not_json' | 'duplicate_key' | 'too_deep';

export type Scan =
  | {
      ok: true;
      value: unknown;
      /** The top-level object's members in order; empty when the value is not an object. */
      members: Member[];
      /** Whitespace between tokens anywhere. */
      spaced: boolean;
      /** The first key found out of code point order, in any object. */
      unsorted: string | null;
    }
  | { ok: false; code: ScanProblem; reason: string };

class ScanError extends Error {
  readonly code: ScanProblem;
  constructor(code: ScanProblem, message: string) {
    super(message);
    this.code = code;
  }
}

const maxDepth = 32;
const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const hexDigit = /^[0-9a-fA-F]$/;

/**
 * Reads one JSON text (RFC 8259) and reports what `JSON.parse` hides: a key given twice in any object
 * (it would keep the last silently), keys out of order, whitespace, and where each top-level member lies.
 */
export function scanJson(text: string): Scan {
  const scanner = new Scanner(text);
  try {
    const members = scanner.document();
    return {
      ok: true,
      value: JSON.parse(text),
      members,
      spaced: scanner.spaced,
      unsorted: scanner.unsorted,
    };
  } catch (error) {
    if (error instanceof ScanError) return { ok: false, code: error.code, reason: error.message };
    throw error;
  }
}

class Scanner {
  at = 0;
  spaced = false;
  unsorted: string | null = null;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  document(): Member[] {
    this.skipSpace();
    let members: Member[] = [];
    if (this.text[this.at] === '{') members = this.object(0);
    else this.value(0);
    this.skipSpace();
    if (this.at < this.text.length) this.fail('unexpected text after the value');
    return members;
  }

  private fail(what: string): never {
    throw new ScanError('not_json', `${what} at character ${this.at}`);
  }

  private skipSpace(): void {
    const start = this.at;
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++;
    if (this.at > start) this.spaced = true;
  }

  private value(depth: number): void {
    if (depth > maxDepth) throw new ScanError('too_deep', `nested deeper than ${maxDepth} levels`);
    const c = this.text[this.at];
    if (c === '{') this.object(depth);
    else if (c === '[') this.array(depth);
    else if (c === '"') this.string();
    else if (c === 't') this.literal('true');
    else if (c === 'f') this.literal('false');
    else if (c === 'n') this.literal('null');
    else this.number();
  }

  private object(depth: number): Member[] {
    const members: Member[] = [];
    const seen = new Set<string>();
    let previous: string | null = null;
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return members;
    }
    for (;;) {
      const start = this.at;
      if (this.text[this.at] !== '"') this.fail('expected a key');
      const key = JSON.parse(this.text.slice(start, this.string())) as string;
      if (seen.has(key)) throw new ScanError('duplicate_key', `duplicate key ${JSON.stringify(key)}`);
      seen.add(key);
      const outOfOrder = previous !== null && compareCodePoints(previous, key) > 0;
      if (outOfOrder && this.unsorted === null) this.unsorted = key;
      previous = key;
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail('expected ":"');
      this.at++;
      this.skipSpace();
      this.value(depth + 1);
      members.push({ key, start, end: this.at });
      this.skipSpace();
      const c = this.text[this.at];
      this.at++;
      if (c === '}') return members;
      if (c !== ',') this.fail('expected "," or "}"');
      this.skipSpace();
    }
  }

  private array(depth: number): void {
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.skipSpace();
      this.value(depth + 1);
      this.skipSpace();
      const c = this.text[this.at];
      this.at++;
      if (c === ']') return;
      if (c !== ',') this.fail('expected "," or "]"');
    }
  }

  /** Moves past a string token and returns the index after its closing quote. */
  private string(): number {
    this.at++;
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (Number.isNaN(c)) this.fail('unterminated string');
      if (c < 0x20) this.fail('raw control character in a string');
      this.at++;
      if (c === 0x22) return this.at;
      if (c !== 0x5c) continue;
      const escaped = this.text[this.at];
      if (escaped === 'u') {
        for (let k = 1; k <= 4; k++)
          if (!hexDigit.test(this.text[this.at + k] ?? '')) this.fail('bad \\u escape');
        this.at += 5;
      } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) {
        this.at++;
      } else {
        this.fail('bad escape');
      }
    }
  }

  private literal(word: string): void {
    if (!this.text.startsWith(word, this.at)) this.fail('unexpected token');
    this.at += word.length;
  }

  private number(): void {
    numberToken.lastIndex = this.at;
    const match = numberToken.exec(this.text);
    if (match === null) this.fail('unexpected token');
    this.at += match[0].length;
  }
}
