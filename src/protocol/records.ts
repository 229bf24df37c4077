import { z } from 'zod';
import {
  consolidatedKinds,
  defaultParams,
  findInjection,
  findObservationProblem,
  findSecret,
  type LessonHash,
  type LessonKind,
  lessonHash,
  type ObservationProblem,
  RememError,
} from '../core/index.ts';
import { canonicalJson, type JsonValue } from './canonical.ts';
import type { Identity, Origin } from './keys.ts';

/** The wire version every record carries as `v`. */
export const wireVersion = 1;

interface Signed {
  v: typeof wireVersion;
  origin: Origin;
  /** The signer's raw Ed25519 public key, hex; its fingerprint is `origin`. */
  key: string;
  /** Ed25519 signature, 128 hex characters, over the line without this member. */
  sig: string;
  /** When the record was last changed, ISO 8601. */
  updated: string;
}

/** A shared lesson. */
export interface LessonRecord extends Signed {
  hash: LessonHash;
  kind: LessonKind;
  text: string;
  seen: number;
  strength: number;
  /** Hashes of the lessons this one merged from. */
  parents?: LessonHash[];
}

/** A lesson came true in a memory that did not publish it. */
export interface ConfirmRecord extends Signed {
  confirm: LessonHash;
}

/** The origin withdraws its lesson. */
export interface RevokeRecord extends Signed {
  revoke: LessonHash;
}

export type SignedRecord = LessonRecord | ConfirmRecord | RevokeRecord;
export type RecordKind = 'lesson' | 'confirm' | 'revoke';

/** What a memory says in a lesson record; the rest (hash, origin, key, signature) the protocol adds. */
export interface LessonFields {
  kind: LessonKind;
  text: string;
  seen: number;
  strength: number;
  updated: string;
  parents?: readonly string[];
}
export interface ConfirmFields {
  confirm: string;
  updated: string;
}
export interface RevokeFields {
  revoke: string;
  updated: string;
}
export type RecordFields = LessonFields | ConfirmFields | RevokeFields;

/** Members written as floats, the way a Python writer holds them: `"strength":2.0`. */
export const floatMembers: ReadonlySet<string> = new Set(['strength']);

const iso8601 =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::(?:[0-5]\d|60)(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

const hex = (length: number, name: string) =>
  z
    .string({ error: `${name} is not a string` })
    .regex(new RegExp(`^[0-9a-f]{${length}}$`), `${name} is not ${length} lowercase hex characters`);

const signedShape = {
  v: z.literal(wireVersion),
  origin: hex(16, 'origin'),
  key: hex(64, 'key'),
  sig: hex(128, 'sig'),
  updated: z.string({ error: 'updated is not a string' }).regex(iso8601, 'updated is not an ISO 8601 time'),
};

export const recordSchemas = {
  lesson: z.object({
    ...signedShape,
    hash: hex(32, 'hash'),
    kind: z.string({ error: 'kind is not a string' }),
    text: z.string({ error: 'text is not a string' }),
    seen: z
      .number({ error: 'seen is not a number' })
      .int('seen is not an integer')
      .min(0, 'seen is negative'),
    strength: z.number({ error: 'strength is not a finite number' }),
    parents: z
      .array(hex(32, 'a parent'), { error: 'parents is not a list' })
      .max(1000, 'over 1000 parents')
      .optional(),
  }),
  confirm: z.object({ ...signedShape, confirm: hex(32, 'confirm') }),
  revoke: z.object({ ...signedShape, revoke: hex(32, 'revoke') }),
} as const;

export type LessonProblem = ObservationProblem | 'kind' | 'secret';

/**
 * What keeps a lesson from being shared or received, or null: a kind other than error, correction or
 * surprise, a text that is not an observation (too long, control characters, an instruction), a secret.
 */
export function findLessonProblem(
  kind: string,
  text: string,
  maxChars: number,
): { code: LessonProblem; reason: string } | null {
  if (!(consolidatedKinds as readonly string[]).includes(kind)) {
    return { code: 'kind', reason: `kind ${JSON.stringify(kind)} is not error, correction or surprise` };
  }
  const problem = findObservationProblem(text, maxChars);
  if (problem !== null) return problem;
  const injection = findInjection(text, { openings: false });
  if (injection !== null) return { code: 'imperative', reason: `text may steer an agent: ${injection}` };
  const secret = findSecret(text);
  return secret === null ? null : { code: 'secret', reason: `text ${secret}` };
}

export interface SignOptions {
  /** The longest lesson text in code points (DESIGN.md §4: 300). */
  maxChars?: number;
}

function unsignedRecord(
  identity: Identity,
  fields: RecordFields,
  maxChars: number,
): Record<string, JsonValue> {
  const signer = { v: wireVersion, origin: identity.origin, key: identity.key, updated: fields.updated };
  if ('confirm' in fields) return { ...signer, confirm: fields.confirm };
  if ('revoke' in fields) return { ...signer, revoke: fields.revoke };
  const problem = findLessonProblem(fields.kind, fields.text, maxChars);
  if (problem !== null) throw new RememError('bad_record', problem.reason);
  return {
    ...signer,
    hash: lessonHash(fields.kind, fields.text),
    kind: fields.kind,
    text: fields.text,
    seen: fields.seen,
    strength: fields.strength,
    ...(fields.parents === undefined ? {} : { parents: [...fields.parents] }),
  };
}

/**
 * The record line for `fields`, signed by `identity`: the record serialised canonically (sorted keys, no spaces,
 * UTF-8 as is), signed, and serialised again with `sig` in its sorted place. Throws `RememError('bad_record')`
 * for what a receiver would refuse.
 */
export function signRecord(identity: Identity, fields: RecordFields, options: SignOptions = {}): string {
  const unsigned = unsignedRecord(identity, fields, options.maxChars ?? defaultParams.sharing.maxChars);
  const kind: RecordKind = 'confirm' in unsigned ? 'confirm' : 'revoke' in unsigned ? 'revoke' : 'lesson';
  const check = (recordSchemas[kind] as z.ZodObject).omit({ sig: true }).safeParse(unsigned);
  if (!check.success) throw new RememError('bad_record', check.error.issues[0]?.message ?? 'invalid record');
  const text = canonicalJson(unsigned, { floatKeys: floatMembers });
  const sig = identity.sign(Buffer.from(text, 'utf8')).toString('hex');
  return canonicalJson({ ...unsigned, sig }, { floatKeys: floatMembers });
}
