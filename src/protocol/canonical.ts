import { hasLoneSurrogate, RememError } from '../core/index.ts';

export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

export interface CanonicalOptions {
  /** Members whose numbers are floats: written as Python writes a float (`2.0`), not as an integer (`2`). */
  floatKeys?: ReadonlySet<string>;
}

/**
 * The bytes a record is signed over, as text: Python's
 * `json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False)`, character for character.
 * Integers are written as integers; other numbers, and every number under a `floatKeys` member, as Python's
 * `repr(float)`. Keys sort by code point. Throws on what Python would write differently or not at all:
 * lone surrogates, non-finite numbers, integers beyond 2^53.
 */
export function canonicalJson(value: JsonValue, options: CanonicalOptions = {}): string {
  return write(value, false, options.floatKeys ?? new Set());
}

function write(value: JsonValue, asFloat: boolean, floatKeys: ReadonlySet<string>): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return writeNumber(value, asFloat);
  if (typeof value === 'string') return writeString(value);
  if (Array.isArray(value)) {
    return `[${value.map((item: JsonValue) => write(item, asFloat, floatKeys)).join(',')}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: JsonValue });
  entries.sort(([a], [b]) => compareCodePoints(a, b));
  const members = entries.map(
    ([key, inner]) => `${writeString(key)}:${write(inner, floatKeys.has(key), floatKeys)}`,
  );
  return `{${members.join(',')}}`;
}

function writeString(text: string): string {
  if (hasLoneSurrogate(text)) throw new RememError('bad_record', 'a record cannot hold a lone surrogate');
  // For well-formed strings JSON.stringify escapes exactly what Python's encoder does, in the same spelling.
  return JSON.stringify(text);
}

function writeNumber(value: number, asFloat: boolean): string {
  if (!Number.isFinite(value)) throw new RememError('bad_record', `a record cannot hold ${value}`);
  if (asFloat || !Number.isInteger(value)) return pythonFloat(value);
  if (!Number.isSafeInteger(value)) throw new RememError('bad_record', `integer out of range: ${value}`);
  return String(value);
}

/**
 * Python's `repr(x)` for a finite float: the shortest digits that read back as `x`, positional when the
 * decimal exponent is in -4..15 (with `.0` when whole), otherwise `d.ddde±XX`.
 */
export function pythonFloat(x: number): string {
  if (!Number.isFinite(x)) throw new RememError('bad_record', `not a finite number: ${x}`);
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponent = '0'] = x.toExponential().split('e');
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  const exp = Number(exponent);
  const point = exp + 1; // digits are 0.d1d2… × 10^point
  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const magnitude = String(Math.abs(exp)).padStart(2, '0');
  return `${sign}${lead}e${exp < 0 ? '-' : '+'}${magnitude}`;
}

/** Order by Unicode code point, as Python sorts strings (UTF-16 order differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** Surrogates (astral code points) after U+E000–U+FFFF, which UTF-16 order puts after them. */
function rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
