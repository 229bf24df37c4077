/**
 * Parsing a JSON line without decoding its long strings. Most transcript bytes are tool output that a reader
 * never looks at, or looks only at the start of; decoding them from UTF-8 and parsing them costs more than
 * everything else ingest does.
 *
 * `skimJson` parses a line with every long string stood in for by a placeholder. Each long string is checked
 * to be valid JSON where it lies, so the line is valid JSON exactly when the skimmed one is; its text is decoded
 * only on demand, by `decodeHead`. Inside a JSON string every quote is escaped, so the quotes that open and close
 * strings can be found on the bytes; nothing else needs to be understood there.
 */

/** A long string left out of a skimmed line. */
export interface LongString {
  /** Where it sits in the parsed value: object keys and array indexes from the top. */
  path: readonly (string | number)[];
  /** Byte offsets of its contents, between its quotes. */
  start: number;
  end: number;
}

export interface Skimmed {
  /** The parsed line; each long string's place holds a placeholder (a string no reader gives meaning to). */
  value: unknown;
  long: LongString[];
}

export interface SkimOptions {
  /** Strings whose contents take at least this many bytes are left out. */
  longBytes: number;
  /** Whether the caller can do without the string at `path` of `value` (or only its head); one no is enough to refuse. */
  accept(value: unknown, path: LongString['path']): boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const PLACEHOLDER = '\u0000skim:';

/**
 * The line from `start` to `end` parsed with its long strings left out, or undefined when it has none, is not
 * valid JSON, or holds one that `accept` refuses (the caller then parses it whole). Never throws.
 */
export function skimJson(
  bytes: Buffer,
  start: number,
  end: number,
  options: SkimOptions,
): Skimmed | undefined {
  try {
    const ranges = longStrings(bytes, start, end, options.longBytes);
    if (ranges === undefined || ranges.length === 0) return undefined;
    const pieces: string[] = [];
    let copied = start;
    for (const [index, range] of ranges.entries()) {
      pieces.push(bytes.toString('utf8', copied, range.start - 1), JSON.stringify(`${PLACEHOLDER}${index}`));
      copied = range.end + 1;
    }
    pieces.push(bytes.toString('utf8', copied, end));
    const value: unknown = JSON.parse(pieces.join(''));
    const paths = placeholderPaths(value, ranges.length);
    if (paths === undefined) return undefined;
    if (!paths.every((path) => options.accept(value, path))) return undefined;
    // Checked last: a refused line is parsed whole anyway, and JSON.parse then judges it.
    for (const range of ranges) if (!isStringBody(bytes, range.start, range.end)) return undefined;
    return { value, long: ranges.map((range, index) => ({ ...range, path: paths[index]! })) };
  } catch {
    return undefined;
  }
}

/** The contents of every string of at least `longBytes` bytes; undefined when a string does not close. */
function longStrings(
  bytes: Buffer,
  start: number,
  end: number,
  longBytes: number,
): { start: number; end: number }[] | undefined {
  const found: { start: number; end: number }[] = [];
  let open = bytes.indexOf(QUOTE, start);
  while (open !== -1 && open < end) {
    const close = closingQuote(bytes, open, end);
    if (close === -1) return undefined;
    if (close - open - 1 >= longBytes) found.push({ start: open + 1, end: close });
    open = bytes.indexOf(QUOTE, close + 1);
  }
  return found;
}

/** The quote that closes the string opened at `open`: the next one not escaped by an odd run of backslashes. */
function closingQuote(bytes: Buffer, open: number, end: number): number {
  let at = bytes.indexOf(QUOTE, open + 1);
  while (at !== -1 && at < end) {
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
    at = bytes.indexOf(QUOTE, at + 1);
  }
  return -1;
}

/**
 * Where each placeholder landed, or undefined unless each appears exactly once, as a value: a key or a value of the
 * line's own that looks like one, or a placeholder dropped by a repeated key, leaves the line to be parsed whole.
 */
function placeholderPaths(value: unknown, count: number): LongString['path'][] | undefined {
  const paths: (LongString['path'] | undefined)[] = new Array(count).fill(undefined);
  const path: (string | number)[] = [];
  const visit = (node: unknown): boolean => {
    if (typeof node === 'string') {
      if (!node.startsWith(PLACEHOLDER)) return true;
      const index = Number(node.slice(PLACEHOLDER.length));
      if (!Number.isInteger(index) || `${PLACEHOLDER}${index}` !== node || index >= count) return false;
      if (paths[index] !== undefined) return false;
      paths[index] = [...path];
      return true;
    }
    if (typeof node !== 'object' || node === null) return true;
    const keys = Array.isArray(node) ? node.keys() : Object.keys(node);
    for (const key of keys) {
      if (typeof key === 'string' && key.startsWith(PLACEHOLDER)) return false;
      path.push(key);
      if (!visit((node as Record<string | number, unknown>)[key])) return false;
      path.pop();
    }
    return true;
  };
  if (!visit(value)) return undefined;
  return paths.every((found) => found !== undefined) ? (paths as LongString['path'][]) : undefined;
}

/**
 * The first `chars` UTF-16 code units of a long string, exactly as parsing the whole line gives them, or all of
 * it when it is shorter. Only the bytes needed are decoded.
 */
export function decodeHead(bytes: Buffer, long: LongString, chars: number): string {
  let want = chars + (chars >> 2);
  for (;;) {
    const cut =
      want >= long.end - long.start ? long.end : cleanCut(bytes, long.start, long.start + want, long.end);
    const head = JSON.parse(`"${bytes.toString('utf8', long.start, cut)}"`) as string;
    if (cut === long.end || head.length >= chars) return head.length > chars ? head.slice(0, chars) : head;
    want *= 2;
  }
}

/**
 * A place at or after `at` where the bytes can be cut and both parts decoded alone: not inside an escape (no
 * backslash among the six bytes before it) nor inside a UTF-8 sequence (it does not fall on a continuation byte).
 */
function cleanCut(bytes: Buffer, start: number, at: number, end: number): number {
  let cut = at;
  while (cut < end) {
    if ((bytes[cut]! & 0xc0) === 0x80) {
      cut++;
      continue;
    }
    let slash = cut - 1;
    while (slash >= start && slash >= cut - 6 && bytes[slash] !== BACKSLASH) slash--;
    if (slash < start || slash < cut - 6) return cut;
    cut = slash + 7;
  }
  return end;
}

/** The bytes that may follow a backslash in a JSON string, besides `u`: `"\\/bfnrt`. */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const char of '"\\/bfnrt') SIMPLE_ESCAPE[char.charCodeAt(0)] = 1;
const HEX_DIGIT = new Uint8Array(256);
const NO_WORDS = new Uint32Array(0);
for (const char of '0123456789abcdefABCDEF') HEX_DIGIT[char.charCodeAt(0)] = 1;

/**
 * Whether the bytes are valid between a JSON string's quotes: no raw control character, and only JSON's escapes
 * (one of `"\\/bfnrt`, or `u` and four hex digits). One pass, four bytes at a time where they hold neither a byte
 * below 0x20 nor a backslash, in a loop of its own; only the words that may hold one are looked at byte by byte.
 */
export function isStringBody(bytes: Buffer, start: number, end: number): boolean {
  const aligned = start + ((4 - ((bytes.byteOffset + start) & 3)) & 3);
  const words = aligned < end ? (end - aligned) >> 2 : 0;
  const view = words > 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + aligned, words) : NO_WORDS;
  let at = start;
  while (at < end) {
    if (at >= aligned && ((at - aligned) & 3) === 0) {
      let index = (at - aligned) >> 2;
      while (index < words) {
        const word = view[index]!;
        const slashes = word ^ 0x5c5c5c5c;
        // Non-zero when a byte of the word may be below 0x20 or a backslash: neither test misses one.
        if ((((word - 0x20202020) & ~word) | ((slashes - 0x01010101) & ~slashes)) & 0x80808080) break;
        index++;
      }
      at = aligned + (index << 2);
      if (at >= end) break;
    }
    const byte = bytes[at]!;
    if (byte < 0x20) return false;
    if (byte !== BACKSLASH) {
      at++;
      continue;
    }
    if (at + 1 >= end) return false;
    const next = bytes[at + 1]!;
    if (SIMPLE_ESCAPE[next] === 1) at += 2;
    else if (
      next === 0x75 &&
      at + 5 < end &&
      HEX_DIGIT[bytes[at + 2]!] === 1 &&
      HEX_DIGIT[bytes[at + 3]!] === 1 &&
      HEX_DIGIT[bytes[at + 4]!] === 1 &&
      HEX_DIGIT[bytes[at + 5]!] === 1
    ) {
      at += 6;
    } else return false;
  }
  return true;
}
