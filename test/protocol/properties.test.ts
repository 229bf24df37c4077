import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findLessonProblem,
  generateIdentity,
  type LessonFields,
  lessonHash,
  parseRecordLine,
  signRecord,
} from '../../src/protocol/index.ts';
import { signAnything } from './helpers.ts';

const me = generateIdentity();
const fieldNames = [
  'v',
  'sig',
  'key',
  'origin',
  'hash',
  'kind',
  'text',
  'seen',
  'strength',
  'updated',
  'parents',
  'confirm',
  'revoke',
];

/** Signed when it can be serialised canonically, else as JSON.stringify writes it. */
function signedOrPlain(value: Record<string, unknown>): string {
  try {
    return signAnything(me, value as Parameters<typeof signAnything>[1]);
  } catch {
    return JSON.stringify(value);
  }
}

const text = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 120 }),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 300 }),
  )
  .map((t) => `The ${t}`.slice(0, 300))
  .filter((t) => !/\p{Cs}/u.test(t));

const isoTime = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2999-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString());

const lessonFields: fc.Arbitrary<LessonFields> = fc.record(
  {
    kind: fc.constantFrom('error', 'correction', 'surprise'),
    text,
    seen: fc.nat(),
    strength: fc.double({ noNaN: true, noDefaultInfinity: true }),
    updated: isoTime,
    parents: fc.array(
      fc.string().map((s) => lessonHash('error', s)),
      { maxLength: 4 },
    ),
  },
  { requiredKeys: ['kind', 'text', 'seen', 'strength', 'updated'] },
);

const acceptable = lessonFields.filter((f) => findLessonProblem(f.kind, f.text, 300) === null);

describe('records, for any input', () => {
  it('sign then parse gives back the same lesson', () => {
    fc.assert(
      fc.property(acceptable, (fields) => {
        const line = signRecord(me, fields);
        const parsed = parseRecordLine(line);
        if ('refused' in parsed) throw new Error(`${parsed.refused}: ${line}`);
        expect(parsed.kind).toBe('lesson');
        expect(parsed.record).toEqual({
          ...fields,
          v: 1,
          hash: lessonHash(fields.kind, fields.text),
          origin: me.origin,
          key: me.key,
          sig: expect.stringMatching(/^[0-9a-f]{128}$/),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('any single-byte change of a signed line is refused', () => {
    const signed = fc.oneof(
      acceptable.map((fields) => signRecord(me, fields)),
      isoTime.map((updated) => signRecord(me, { confirm: lessonHash('error', updated), updated })),
      isoTime.map((updated) => signRecord(me, { revoke: lessonHash('error', updated), updated })),
    );
    fc.assert(
      fc.property(signed, fc.nat(), fc.integer({ min: 1, max: 255 }), (line, position, delta) => {
        const bytes = Buffer.from(line, 'utf8');
        const at = position % bytes.length;
        bytes[at] = (bytes[at]! + delta) % 256;
        const parsed = parseRecordLine(bytes);
        expect('refused' in parsed, `byte ${at} of ${line}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('garbage is refused and never throws', () => {
    const line = signRecord(me, {
      kind: 'error',
      text: 'The cache was cold.',
      seen: 1,
      strength: 1,
      updated: '2026-11-13',
    });
    const garbage = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.uint8Array({ maxLength: 600 }),
      fc.json(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue()).map((value) => signedOrPlain(value)),
      fc
        .record({
          v: fc.constant(1),
          origin: fc.constant(me.origin),
          key: fc.constant(me.key),
          hash: fc.string(),
        })
        .map(signedOrPlain),
      fc
        .tuple(fc.nat(), fc.nat(), fc.string())
        .map(([from, length, insert]) => {
          const at = from % line.length;
          return line.slice(0, at) + insert + line.slice(at + (length % 8));
        })
        .filter((spliced) => spliced !== line),
    );
    fc.assert(
      fc.property(garbage, (input) => {
        const parsed = parseRecordLine(input);
        expect(parsed).toHaveProperty('refused');
        expect('refused' in parsed && typeof parsed.refused).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });
});
