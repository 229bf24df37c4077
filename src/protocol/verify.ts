import { defaultParams, hasLoneSurrogate, lessonHash } from '../core/index.ts';
import { originOf, verifySignature } from './keys.ts';
import {
  type ConfirmRecord,
  findLessonProblem,
  type LessonProblem,
  type LessonRecord,
  type RecordKind,
  type RevokeRecord,
  recordSchemas,
  wireVersion,
} from './records.ts';
import { type Member, type ScanProblem, scanJson } from './strict-json.ts';

export type ParsedRecord =
  | { kind: 'lesson'; record: LessonRecord; line: string }
  | { kind: 'confirm'; record: ConfirmRecord; line: string }
  | { kind: 'revoke'; record: RevokeRecord; line: string };

export type RefusalCode =
  | ScanProblem
  | LessonProblem
  | 'not_utf8'
  | 'line_too_long'
  | 'not_object'
  | 'not_compact'
  | 'unsorted'
  | 'version'
  | 'sig'
  | 'key'
  | 'origin'
  | 'record_type'
  | 'field'
  | 'signature'
  | 'hash';

/** Why a line was not taken, in words and as a code to count by. */
export interface Refusal {
  refused: string;
  code: RefusalCode;
}

export interface ParseOptions {
  /** The longest lesson text in code points (DESIGN.md §4: 300). */
  maxChars?: number;
}

/** Longer lines are refused unread: a record is well under 2 KB, a memory's whole file at most 256 KB. */
export const maxLineBytes = 64 * 1024;

const refuse = (code: RefusalCode, refused: string): Refusal => ({ refused, code });
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The line without its `sig` member and the comma that joins it: the exact text the signer signed.
 * `members` are the line's top-level members as `scanJson` found them.
 */
export function cutSignature(line: string, members: readonly Member[]): string | null {
  const at = members.findIndex((member) => member.key === 'sig');
  const sig = members[at];
  if (sig === undefined) return null;
  const before = members[at - 1];
  if (before !== undefined) return line.slice(0, before.end) + line.slice(sig.end);
  const after = members[at + 1];
  return line.slice(0, sig.start) + line.slice(after === undefined ? sig.end : after.start);
}

function recordKind(value: Record<string, unknown>): RecordKind | Refusal {
  const kinds = (['confirm', 'revoke', 'hash'] as const).filter((key) => Object.hasOwn(value, key));
  if (kinds.length > 1) {
    const has = kinds.join(' and ');
    return refuse('record_type', `a record is one of lesson, confirmation or revocation: has ${has}`);
  }
  if (kinds[0] === 'confirm') return 'confirm';
  if (kinds[0] === 'revoke') return 'revoke';
  if (kinds[0] === 'hash') return 'lesson';
  return refuse('record_type', 'not a lesson, confirmation or revocation (no hash, confirm or revoke)');
}

/**
 * Reads one record line as received, and takes it only when every check passes. Bytes are decoded strictly
 * (invalid UTF-8 is refused); one trailing newline is allowed. The signature is checked over the received
 * text with `"sig":"…"` cut out, never over a re-serialisation, so any writer's valid JSON spelling verifies.
 * Never throws.
 */
export function parseRecordLine(
  input: string | Uint8Array,
  options: ParseOptions = {},
): ParsedRecord | Refusal {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > maxLineBytes) return refuse('line_too_long', `line is over ${maxLineBytes / 1024} KB`);
  let line: string;
  if (typeof input === 'string') {
    line = input;
  } else {
    try {
      line = strictUtf8.decode(input);
    } catch {
      return refuse('not_utf8', 'line is not valid UTF-8');
    }
  }
  if (hasLoneSurrogate(line)) return refuse('not_utf8', 'line holds a lone surrogate');
  line = line.replace(/\r?\n$/, '');

  const scan = scanJson(line);
  if (!scan.ok) return refuse(scan.code, scan.code === 'not_json' ? `not JSON: ${scan.reason}` : scan.reason);
  if (typeof scan.value !== 'object' || scan.value === null || Array.isArray(scan.value)) {
    return refuse('not_object', 'not a JSON object');
  }
  if (scan.spaced) return refuse('not_compact', 'not compact JSON: whitespace between tokens');
  if (scan.unsorted !== null) {
    return refuse('unsorted', `keys not sorted: ${JSON.stringify(scan.unsorted)} is out of order`);
  }
  const value = scan.value as Record<string, unknown>;

  if (!Object.hasOwn(value, 'v')) return refuse('version', 'no version (v)');
  if (value['v'] !== wireVersion) return refuse('version', `unknown version ${JSON.stringify(value['v'])}`);
  if (!Object.hasOwn(value, 'sig')) return refuse('sig', 'no signature (sig)');
  if (typeof value['sig'] !== 'string' || !/^[0-9a-f]{128}$/.test(value['sig'])) {
    return refuse('sig', 'sig is not 128 lowercase hex characters');
  }
  const key = value['key'];
  if (typeof key !== 'string' || !/^[0-9a-f]{64}$/.test(key)) {
    return refuse('key', 'key is not 64 lowercase hex characters');
  }
  if (originOf(key) !== value['origin']) return refuse('origin', "the key's fingerprint is not the origin");

  const kind = recordKind(value);
  if (typeof kind !== 'string') return kind;
  const fields = recordSchemas[kind].safeParse(value);
  if (!fields.success) return refuse('field', fields.error.issues[0]?.message ?? 'invalid field');

  const unsigned = cutSignature(line, scan.members);
  if (unsigned === null || !verifySignature(key, Buffer.from(unsigned, 'utf8'), value['sig'])) {
    return refuse('signature', 'bad signature');
  }

  if (kind === 'confirm') return { kind, record: fields.data as ConfirmRecord, line };
  if (kind === 'revoke') return { kind, record: fields.data as RevokeRecord, line };
  const record = fields.data as LessonRecord;
  const maxChars = options.maxChars ?? defaultParams.sharing.maxChars;
  const problem = findLessonProblem(record.kind, record.text, maxChars);
  if (problem !== null) return refuse(problem.code, problem.reason);
  if (lessonHash(record.kind, record.text) !== record.hash) {
    return refuse('hash', 'hash does not match the kind and text');
  }
  return { kind, record, line };
}
