import { describe, expect, it } from 'vitest';
import {
  generateIdentity,
  type JsonValue,
  lessonHash,
  parseRecordLine,
  type RecordFields,
  signRecord,
} from '../../src/protocol/index.ts';
import { signAnything, signText } from './helpers.ts';

const me = generateIdentity();
const other = generateIdentity();
const text = 'The build fails on CI when the cache directory is missing.';
const lesson = { kind: 'error', text, seen: 2, strength: 1.5, updated: '2026-11-13T04:00:00Z' } as const;
const hash = lessonHash('error', text);

/** A lesson record as signRecord would build it, for tests that change one field. */
function lessonRecord(changes: Record<string, JsonValue> = {}): Record<string, JsonValue> {
  return { v: 1, origin: me.origin, key: me.key, hash, ...lesson, ...changes };
}

function refusal(line: string | Uint8Array) {
  const result = parseRecordLine(line);
  if (!('refused' in result)) throw new Error(`accepted: ${JSON.stringify(result.record)}`);
  return result;
}

describe('signRecord and parseRecordLine', () => {
  it('round-trips a lesson, with sig in its sorted place', () => {
    const line = signRecord(me, { ...lesson, parents: [lessonHash('error', 'a'), lessonHash('error', 'b')] });
    expect(Object.keys(JSON.parse(line))).toEqual([
      'hash',
      'key',
      'kind',
      'origin',
      'parents',
      'seen',
      'sig',
      'strength',
      'text',
      'updated',
      'v',
    ]);
    expect(line).toContain('"strength":1.5,');
    const parsed = parseRecordLine(line);
    expect(parsed).toMatchObject({
      kind: 'lesson',
      line,
      record: { hash, origin: me.origin, text, seen: 2 },
    });
  });

  it('writes a whole strength as a float, as a Python writer would', () => {
    expect(signRecord(me, { ...lesson, strength: 2 })).toContain('"strength":2.0,');
  });

  it.each<[string, RecordFields]>([
    ['confirm', { confirm: hash, updated: '2026-11-13' }],
    ['revoke', { revoke: hash, updated: '2026-11-13T04:00:00.123456+00:00' }],
  ])('round-trips a %s', (kind, fields) => {
    const line = signRecord(me, fields);
    expect(parseRecordLine(line)).toMatchObject({
      kind,
      record: { ...fields, v: 1, origin: me.origin, key: me.key },
    });
  });

  it('accepts a trailing newline and bytes', () => {
    const line = signRecord(me, lesson);
    expect(parseRecordLine(`${line}\n`)).toMatchObject({ kind: 'lesson', line });
    expect(parseRecordLine(Buffer.from(`${line}\r\n`))).toMatchObject({ kind: 'lesson', line });
  });

  it('keeps unknown fields under the signature and in the line, and leaves them out of the record', () => {
    const line = signAnything(me, lessonRecord({ mood: 'curious' }));
    const parsed = parseRecordLine(line);
    expect(parsed).toMatchObject({ kind: 'lesson', line });
    expect('record' in parsed && 'mood' in parsed.record).toBe(false);
  });

  it('verifies the bytes received, whatever spelling the writer chose', () => {
    const cafe = 'Café build fails';
    const unsigned = `{"hash":"${lessonHash('error', cafe)}","key":"${me.key}","kind":"error","origin":"${me.origin}","seen":2,"strength":2.0,"text":"Caf\\u00e9 build fails","updated":"2026-11-13","v":1}`;
    const line = signText(me, unsigned, '"seen":2');
    expect(line).toContain('\\u00e9');
    expect(parseRecordLine(line)).toMatchObject({ kind: 'lesson', record: { text: cafe, strength: 2 } });
  });

  it('refuses to sign what a receiver would refuse', () => {
    expect(() => signRecord(me, { ...lesson, text: 'Always run the tests first.' })).toThrow(/instruction/);
    expect(() => signRecord(me, { ...lesson, text: 'x'.repeat(301) })).toThrow(/300/);
    expect(() =>
      signRecord(me, { ...lesson, text: 'the key is ghp_1234567890abcdefghijABCDEFGHIJ123456' }),
    ).toThrow(/GitHub/);
    expect(() => signRecord(me, { ...lesson, updated: 'yesterday' })).toThrow(/ISO 8601/);
    expect(() => signRecord(me, { ...lesson, seen: 1.5 })).toThrow(/integer/);
    expect(() => signRecord(me, { confirm: 'nope', updated: '2026-11-13' })).toThrow(/hex/);
  });
});

describe('parseRecordLine refuses, with a reason', () => {
  const cases: [string, () => string | Uint8Array, string, RegExp][] = [
    ['not JSON', () => 'hello', 'not_json', /^not JSON/],
    ['not an object', () => '[1,2]', 'not_object', /object/],
    [
      'a duplicate key',
      () => signAnything(me, lessonRecord()).replace('"v":1}', '"v":1,"v":1}'),
      'duplicate_key',
      /duplicate key "v"/,
    ],
    [
      'a nested duplicate key',
      () => signAnything(me, lessonRecord({ x: { a: 1 } })).replace('"a":1', '"a":1,"a":2'),
      'duplicate_key',
      /"a"/,
    ],
    [
      'whitespace',
      () => signAnything(me, lessonRecord()).replace('"v":1', '"v": 1'),
      'not_compact',
      /compact/,
    ],
    [
      'keys out of order',
      () => `{"v":1,${signAnything(me, lessonRecord()).slice(1).replace(',"v":1', '')}`,
      'unsorted',
      /sorted/,
    ],
    [
      'no version',
      () => signAnything(me, lessonRecord({ v: null })).replace('"v":null', '"w":1'),
      'version',
      /no version/,
    ],
    ['an unknown version', () => signAnything(me, lessonRecord({ v: 2 })), 'version', /unknown version 2/],
    [
      'a version written as a string',
      () => signAnything(me, lessonRecord({ v: '1' })),
      'version',
      /unknown version "1"/,
    ],
    [
      'no sig',
      () => JSON.stringify(Object.fromEntries(Object.entries(lessonRecord()).sort())),
      'sig',
      /no signature/,
    ],
    [
      'an uppercase sig',
      () =>
        signAnything(me, lessonRecord()).replace(
          /"sig":"([0-9a-f]+)"/,
          (_, s: string) => `"sig":"${s.toUpperCase()}"`,
        ),
      'sig',
      /128 lowercase hex/,
    ],
    [
      'a short sig',
      () => signAnything(me, lessonRecord()).replace(/"sig":"[0-9a-f]{2}/, '"sig":"'),
      'sig',
      /128/,
    ],
    [
      'a key that is not hex',
      () => signAnything(me, lessonRecord({ key: 'k'.repeat(64) })),
      'key',
      /64 lowercase hex/,
    ],
    [
      'an origin that is not the key’s fingerprint',
      () => signAnything(me, lessonRecord({ origin: other.origin })),
      'origin',
      /fingerprint/,
    ],
    ['a signature by another key', () => signAnything(other, lessonRecord()), 'signature', /bad signature/],
    [
      'a changed text',
      () => signAnything(me, lessonRecord()).replace('missing', 'absent!'),
      'signature',
      /bad signature/,
    ],
    [
      'a hash that does not match',
      () => signAnything(me, lessonRecord({ hash: lessonHash('error', 'other') })),
      'hash',
      /hash does not match/,
    ],
    ['a hash of another kind', () => signAnything(me, lessonRecord({ kind: 'surprise' })), 'hash', /hash/],
    [
      'a text over 300 characters',
      () =>
        signAnything(me, lessonRecord({ text: 'é'.repeat(301), hash: lessonHash('error', 'é'.repeat(301)) })),
      'too_long',
      /over 300 characters \(301\)/,
    ],
    [
      'an imperative opening',
      () =>
        signAnything(
          me,
          lessonRecord({ text: 'Don’t use pip.', hash: lessonHash('error', 'Don’t use pip.') }),
        ),
      'imperative',
      /instruction/,
    ],
    [
      'control characters',
      () => signAnything(me, lessonRecord({ text: 'a\u001b[2Jb', hash: lessonHash('error', 'a\u001b[2Jb') })),
      'control_chars',
      /control/,
    ],
    [
      'a kind other than error, correction, surprise',
      () => signAnything(me, lessonRecord({ kind: 'note', hash: lessonHash('note', text) })),
      'kind',
      /kind "note"/,
    ],
    [
      'a secret',
      () =>
        signAnything(
          me,
          lessonRecord({
            text: 'Deploys use password=hunter2',
            hash: lessonHash('error', 'Deploys use password=hunter2'),
          }),
        ),
      'secret',
      /password/,
    ],
    [
      'an empty text',
      () => signAnything(me, lessonRecord({ text: ' ', hash: lessonHash('error', ' ') })),
      'empty',
      /empty/,
    ],
    [
      'a lone surrogate',
      () => signAnything(me, lessonRecord()).replace('missing', 'missing\\ud800'),
      'signature',
      /signature/,
    ],
    [
      'a record that is both kinds',
      () => signAnything(me, { ...lessonRecord(), confirm: hash }),
      'record_type',
      /one of/,
    ],
    [
      'a record of no known kind',
      () => signAnything(me, { v: 1, origin: me.origin, key: me.key, updated: '2026-11-13' }),
      'record_type',
      /not a lesson/,
    ],
    ['a seen below zero', () => signAnything(me, lessonRecord({ seen: -1 })), 'field', /seen is negative/],
    ['a bad updated', () => signAnything(me, lessonRecord({ updated: '2026-13-01' })), 'field', /ISO 8601/],
    ['a bad parent', () => signAnything(me, lessonRecord({ parents: ['nope'] })), 'field', /parent/],
    [
      'a text that is not a string',
      () => signAnything(me, lessonRecord({ text: 5 })),
      'field',
      /text is not a string/,
    ],
    [
      'bytes that are not UTF-8',
      () => Buffer.concat([Buffer.from(signAnything(me, lessonRecord())), Buffer.from([0xff])]),
      'not_utf8',
      /UTF-8/,
    ],
    ['a line over 64 KB', () => 'x'.repeat(70_000), 'line_too_long', /64/],
    ['nesting too deep', () => `{"a":${'['.repeat(40)}`, 'too_deep', /deeper/],
  ];

  it.each(cases)('%s', (_, make, code, reason) => {
    const result = refusal(make());
    expect(result.code).toBe(code);
    expect(result.refused).toMatch(reason);
  });

  it('refuses a lone surrogate in a lesson text even under a valid signature', () => {
    const unsigned = `{"hash":"${hash}","key":"${me.key}","kind":"error","origin":"${me.origin}","seen":2,"strength":1.5,"text":"broken \\ud800","updated":"2026-11-13","v":1}`;
    expect(refusal(signText(me, unsigned, '"seen":2')).code).toBe('not_unicode');
  });
});
