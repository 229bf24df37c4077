import { z } from 'zod';
import { defaultParams } from '../core/index.ts';
import type { Origin } from './keys.ts';
import { type ParsedRecord, parseRecordLine, type Refusal } from './verify.ts';

/**
 * A memory's file, `<origin>.jsonl`: its signed records, one line each. The same shape travels through a
 * folder, the commons and gossip, so one reader checks it everywhere.
 */

/** Why one line of a file was not taken: the protocol's refusal codes, and three a file adds. */
export type LineProblem = Refusal['code'] | 'wrong_origin' | 'future' | 'too_many_records';

export interface LineRefusal {
  /** 1-based line number in the file as received. */
  line: number;
  code: LineProblem;
  reason: string;
}

/** Why a whole file was not taken, before or beside its lines. */
export type FileProblem = 'too_large' | 'too_many_records' | 'empty';

export interface FileLimits {
  /** At most this many records per memory (DESIGN.md §4: 1,000). */
  maxRecords: number;
  /** At most this many bytes per memory (DESIGN.md §4: 256 KB). */
  maxBytes: number;
}

export const defaultFileLimits: FileLimits = {
  maxRecords: defaultParams.commons.maxRecords,
  maxBytes: defaultParams.commons.maxBytes,
};

export type LineParser = (line: string) => ParsedRecord | Refusal;

export interface ReadFileOptions {
  limits?: FileLimits;
  /** Records whose `updated` is later than this (ISO 8601) are refused: a clock cannot vouch for the future. */
  notAfter?: string;
  /** The line checker; `parseRecordLine` unless a caller memoises it (the gossip simulation does). */
  parse?: LineParser;
}

export interface RecordFile {
  origin: Origin;
  /** The records that passed every check, each with the line exactly as received. */
  records: ParsedRecord[];
  refused: LineRefusal[];
  /** A problem with the file as a whole; when set, `records` is empty. */
  problem: { code: FileProblem; reason: string } | null;
  /** The file's `updated`: the latest `updated` among its records as written, or null when it has none. */
  updated: string | null;
  bytes: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const originPattern = /^[0-9a-f]{16}$/;

/** Whether `text` has the shape of an origin: 16 lowercase hex characters. */
export function isOrigin(text: string): text is Origin {
  return originPattern.test(text);
}

const isoParts =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d|60)(?:\.(\d{1,9}))?)?(Z|([+-])([01]\d|2[0-3]):?([0-5]\d))?)?$/;

/**
 * A sortable key for an ISO 8601 time as records write it: UTC, nanosecond digits, `Z`
 * (`2026-11-13T04:00:00.000000000Z`). A date alone is its midnight; no zone means UTC. Null when it is not one.
 * Two records' times are compared by their keys, never as written, since zones and precision vary.
 */
export function timeKey(iso: string): string | null {
  let key = recentKeys.get(iso);
  if (key === undefined) {
    key = computeTimeKey(iso);
    // Holders compare the same few times over and over; a small memo spares the parse.
    if (recentKeys.size >= 4096) recentKeys.clear();
    recentKeys.set(iso, key);
  }
  return key;
}

const recentKeys = new Map<string, string | null>();

function computeTimeKey(iso: string): string | null {
  const m = isoParts.exec(iso);
  if (m === null) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone, sign, zh = '00', zm = '00'] = m;
  const at = new Date(0);
  at.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  at.setUTCHours(Number(h), Number(mi), Number(s), 0);
  if (zone !== undefined && zone !== 'Z') {
    const offset = (Number(zh) * 60 + Number(zm)) * 60_000;
    at.setTime(at.getTime() - (sign === '-' ? -offset : offset));
  }
  if (Number.isNaN(at.getTime())) return null;
  // A zone can carry the first or last day of years 0000–9999 outside them; such times sort at the ends.
  if (at.getUTCFullYear() > 9999) return '9999-12-31T23:59:59.999999999Z';
  if (at.getUTCFullYear() < 0) return '0000-01-01T00:00:00.000000000Z';
  const whole = at.toISOString();
  return `${whole.slice(0, 19)}.${fraction.padEnd(9, '0')}Z`;
}

/** The key of a time given as a Date or any string `Date` reads (the clock's ISO strings). */
export function keyOfNow(now: string | Date): string {
  const key = typeof now === 'string' ? timeKey(now) : null;
  if (key !== null) return key;
  const at = typeof now === 'string' ? new Date(now) : now;
  return `${at.toISOString().slice(0, 23)}000000Z`;
}

function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, at));
    start = at + 1;
  }
  // A final newline ends the last line; it does not start an empty one.
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/**
 * Reads `<origin>.jsonl` as received and checks every line: a valid record (`parseRecordLine`), signed by
 * the key whose fingerprint is `origin`, not dated in the future. Lines that fail are named in `refused`;
 * a caller that takes only whole files (the commons) refuses the file when any line fails, one that takes what
 * verifies (gossip) keeps the rest. Never throws.
 */
export function readRecordFile(
  origin: Origin,
  body: Uint8Array | string,
  options: ReadFileOptions = {},
): RecordFile {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const limits = options.limits ?? defaultFileLimits;
  const file: RecordFile = {
    origin,
    records: [],
    refused: [],
    problem: null,
    updated: null,
    bytes: bytes.byteLength,
  };
  if (bytes.byteLength > limits.maxBytes) {
    file.problem = {
      code: 'too_large',
      reason: `${bytes.byteLength} bytes: a memory's file is at most ${limits.maxBytes} bytes`,
    };
    return file;
  }
  const lines = splitLines(bytes);
  if (lines.length === 0) {
    file.problem = { code: 'empty', reason: 'no records: a memory withdraws a lesson with a revocation' };
    return file;
  }
  if (lines.length > limits.maxRecords) {
    file.problem = {
      code: 'too_many_records',
      reason: `${lines.length} records: a memory holds at most ${limits.maxRecords}`,
    };
    for (let n = limits.maxRecords + 1; n <= lines.length; n++) {
      file.refused.push({ line: n, code: 'too_many_records', reason: `over ${limits.maxRecords} records` });
    }
    return file;
  }
  const texts: string[] = [];
  const undecodable = new Set<number>();
  lines.forEach((raw, index) => {
    try {
      texts.push(strictUtf8.decode(raw));
    } catch {
      texts.push('');
      undecodable.add(index);
    }
  });
  const checked = checkRecordLines(origin, texts, options, undecodable);
  return { ...file, ...checked };
}

/**
 * Checks lines already decoded, as `readRecordFile` does after splitting; for holders that pass lines in
 * memory. `undecodable` holds the indexes of lines that were not UTF-8.
 */
export function checkRecordLines(
  origin: Origin,
  lines: readonly string[],
  options: ReadFileOptions = {},
  undecodable: ReadonlySet<number> = new Set(),
): Pick<RecordFile, 'records' | 'refused' | 'updated'> {
  const parse = options.parse ?? ((line: string) => parseRecordLine(line));
  const notAfter = options.notAfter === undefined ? null : keyOfNow(options.notAfter);
  const out: Pick<RecordFile, 'records' | 'refused' | 'updated'> = {
    records: [],
    refused: [],
    updated: null,
  };
  let latest = '';
  lines.forEach((text, index) => {
    const line = index + 1;
    if (undecodable.has(index)) {
      out.refused.push({ line, code: 'not_utf8', reason: 'line is not valid UTF-8' });
      return;
    }
    // A file written with CRLF line ends is the same file.
    const record = text.endsWith('\r') ? text.slice(0, -1) : text;
    const parsed = parse(record);
    if ('refused' in parsed) {
      const reason = record === '' ? 'empty line' : parsed.refused;
      out.refused.push({ line, code: parsed.code, reason });
      return;
    }
    if (parsed.record.origin !== origin) {
      out.refused.push({
        line,
        code: 'wrong_origin',
        reason: `signed by ${parsed.record.origin}, not by ${origin}`,
      });
      return;
    }
    const key = timeKey(parsed.record.updated) ?? '';
    if (notAfter !== null && key > notAfter) {
      out.refused.push({ line, code: 'future', reason: `updated ${parsed.record.updated} is in the future` });
      return;
    }
    out.records.push(parsed);
    if (key > latest) {
      latest = key;
      out.updated = parsed.record.updated;
    }
  });
  return out;
}

/** One memory's file as an index lists it. */
export interface IndexEntry {
  origin: Origin;
  /** The latest `updated` among its records, as written. */
  updated: string;
  records: number;
}

/** An index entry as it arrives over the wire: checked, never trusted. */
export const indexEntrySchema = z.object({
  origin: z.string().regex(originPattern, 'origin is not 16 lowercase hex characters'),
  updated: z.string().refine((value) => timeKey(value) !== null, 'updated is not an ISO 8601 time'),
  records: z.number().int().min(0),
});

/** Whether an index's `updated` is later than what a holder has (nothing held counts as earlier). */
export function isNewer(offered: string, held: string | undefined): boolean {
  if (held === undefined) return true;
  if (offered === held) return false;
  return (timeKey(offered) ?? '') > (timeKey(held) ?? '');
}

/** The latest `updated` a receiver takes: its clock plus the skew it allows. */
export function latestAllowed(options: { now: string; skewMs?: number }): string {
  return new Date(new Date(options.now).getTime() + (options.skewMs ?? 600_000)).toISOString();
}
