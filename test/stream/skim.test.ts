import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeCodeReader as reader } from '../../src/stream/claude-code.ts';
import { decodeHead, isStringBody, skimJson } from '../../src/stream/skim.ts';

/** Pieces of a JSON string's body, valid or not, in UTF-8 or not. */
const piece = fc.constantFrom(
  'a',
  ' ',
  'é',
  '✓',
  '😀',
  '\\n',
  '\\\\',
  '\\"',
  '\\/',
  '\\u0041',
  '\\u00e9',
  '\\ud83d',
  '\\ude00',
  '\\u001b',
  'u',
  '0',
  'F',
  '\u2028',
);
const badPiece = fc.constantFrom('\\', '\\q', '\\u12', '\\uZZZZ', '\t', '\u0001', '\u001f');
const rawByte = fc.constantFrom(0xff, 0xc3, 0x80, 0xe2, 0xf0, 0xed);

/** A string body as bytes, placed at `offset` in a larger buffer (so four-byte steps start unaligned). */
const body = fc
  .record({
    parts: fc.array(fc.oneof({ weight: 8, arbitrary: piece }, { weight: 1, arbitrary: badPiece }), {
      maxLength: 60,
    }),
    raw: fc.array(fc.tuple(fc.nat(), rawByte), { maxLength: 3 }),
    offset: fc.nat(7),
  })
  .map(({ parts, raw, offset }) => {
    const bytes = [...Buffer.from(parts.join(''))];
    for (const [at, byte] of raw) bytes.splice(at % (bytes.length + 1), 0, byte);
    const buffer = Buffer.concat([Buffer.alloc(offset, 0x61), Buffer.from(bytes), Buffer.from('"')]);
    return { buffer, start: offset, end: offset + bytes.length };
  });

/** What parsing the body whole gives, or undefined when it is not valid JSON. */
function parsed(buffer: Buffer, start: number, end: number): string | undefined {
  try {
    return JSON.parse(`"${buffer.toString('utf8', start, end)}"`) as string;
  } catch {
    return undefined;
  }
}

/** Whether the body ends where its closing quote would be found: no quote in it, nor a last backslash, unescaped. */
function closesAtEnd(buffer: Buffer, start: number, end: number): boolean {
  let at = start;
  while (at < end) {
    if (buffer[at] === 0x5c) at += 2;
    else if (buffer[at] === 0x22) return false;
    else at++;
  }
  return at === end;
}

describe('isStringBody', () => {
  it('agrees with JSON.parse on any body', () => {
    fc.assert(
      fc.property(body, ({ buffer, start, end }) => {
        fc.pre(closesAtEnd(buffer, start, end));
        expect(isStringBody(buffer, start, end)).toBe(parsed(buffer, start, end) !== undefined);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('decodeHead', () => {
  it('gives the first characters of the whole string, or all of it', () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 40 }), ({ buffer, start, end }, chars) => {
        const whole = parsed(buffer, start, end);
        fc.pre(whole !== undefined);
        expect(decodeHead(buffer, { path: [], start, end }, chars)).toBe(whole!.slice(0, chars));
      }),
      { numRuns: 3000 },
    );
  });
});

const long = (text: string, bytes = 3000) => text.repeat(Math.ceil(bytes / text.length));
const stamp = { parentUuid: 'p', cwd: '/w', uuid: 'u', timestamp: '2026-03-01T00:00:00.000Z' };
const result = (content: unknown, extra: Record<string, unknown> = {}) => ({
  ...stamp,
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content }] },
  ...extra,
});

/** The line as bytes, skimmed, beside what parsing it whole gives. */
function both(line: string | Buffer) {
  const bytes = Buffer.isBuffer(line) ? line : Buffer.from(line);
  let whole: unknown;
  try {
    whole = reader.parseLine(JSON.parse(bytes.toString('utf8')), 9);
  } catch {
    whole = 'not JSON';
  }
  return { skimmed: reader.skimLine?.(bytes, 0, bytes.length, 9), whole };
}

describe('skimLine', () => {
  it('reads a successful result from its head, and gives what parsing it whole gives', () => {
    for (const content of [
      long('ok line\n', 20_000),
      `Exit code 0\n${long('✓ passed\n', 20_000)}`,
      `${' '.repeat(3000)}Exit code 1\n${long('x', 12_000)}`,
      long('中文\\n', 20_000),
      `Exit code 4${' '.repeat(5000)}\nrest`,
      long('x', 9000),
    ]) {
      const { skimmed, whole } = both(
        JSON.stringify(result(content, { toolUseResult: { stdout: content } })),
      );
      expect(skimmed).toBeDefined();
      expect(skimmed).toEqual(whole);
    }
  });

  it('leaves to a whole parse what it cannot read from a head', () => {
    const refused = `The user doesn't want to proceed with this tool use. the user said:\n${long('no')}`;
    const lines = [
      {
        ...result(long('x')),
        message: { role: 'user', content: [{ type: 'tool_result', content: long('e'), is_error: true }] },
      },
      result(refused),
      result(long('x'), { toolUseResult: 'User rejected tool use' }),
      result(long('x'), { isCompactSummary: true }),
      { ...stamp, type: 'user', message: { role: 'user', content: long('a long prompt ') } },
      {
        ...stamp,
        type: 'assistant',
        message: { id: 'm', content: [{ type: 'text', text: long('reply ') }] },
      },
      result([{ type: 'text', text: long('block ') }]),
      result(long('x'), { note: '\u0000skim:0' }),
    ];
    for (const record of lines) {
      const { skimmed, whole } = both(JSON.stringify(record));
      expect(skimmed).toBeUndefined();
      expect(whole).not.toBe('not JSON');
    }
  });

  it('skips what the reader never reads: tool results’ copies, thinking, images', () => {
    const record = {
      ...stamp,
      type: 'assistant',
      message: {
        id: 'm',
        content: [
          { type: 'thinking', thinking: long('hmm '), signature: long('S') },
          { type: 'text', text: 'short' },
        ],
      },
    };
    const { skimmed, whole } = both(JSON.stringify(record));
    expect(skimmed).toBeDefined();
    expect(skimmed).toEqual(whole);
  });

  it('gives nothing for a line that is not JSON, so the whole parse can say why', () => {
    const text = JSON.stringify(result(long('x')));
    for (const line of [
      text.slice(0, -1),
      `${text} x`,
      text.replace('xxxx', 'x\\qx'),
      text.replace('xxxx', 'x\tx'),
      text.replace('xxxx', 'x\\u12x'),
      `${text.slice(0, 100)}"${text.slice(100)}`,
    ]) {
      expect(both(line)).toEqual({ skimmed: undefined, whole: 'not JSON' });
    }
  });

  it('agrees with the whole parse on generated lines wherever it answers', () => {
    const content = fc.oneof(
      fc.constantFrom(long('ok\n'), long('✓ fine '), `${long(' ', 2000)}Exit code 3\nx`, long(' ', 9000), ''),
      fc.string({ maxLength: 40 }),
    );
    const record = fc.record({
      content,
      isError: fc.constantFrom(undefined, true, false, 'true'),
      toolUseResult: fc.oneof(fc.constantFrom(undefined, 'User rejected tool use', 'x'), content),
      extra: fc.dictionary(
        fc.constantFrom('isMeta', 'toolDenialKind', 'agentId', 'isSidechain', 'type'),
        fc.oneof(fc.boolean(), fc.string({ maxLength: 5 })),
      ),
    });
    fc.assert(
      fc.property(record, ({ content: text, isError, toolUseResult, extra }) => {
        const line = JSON.stringify({
          ...result(text),
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't', content: text, is_error: isError }],
          },
          toolUseResult,
          ...extra,
        });
        const { skimmed, whole } = both(line);
        if (skimmed !== undefined) expect(skimmed).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });
});

describe('skimJson', () => {
  it('finds where each long string sat, and refuses placeholders the line already held', () => {
    const line = Buffer.from(JSON.stringify({ a: [1, { b: long('x', 50) }], c: long('y', 50) }));
    const skimmed = skimJson(line, 0, line.length, { longBytes: 20, accept: () => true });
    expect(skimmed?.long.map((entry) => entry.path)).toEqual([['a', 1, 'b'], ['c']]);
    const clash = Buffer.from(JSON.stringify({ a: long('x', 50), b: '\u0000skim:0' }));
    expect(skimJson(clash, 0, clash.length, { longBytes: 20, accept: () => true })).toBeUndefined();
    const key = Buffer.from(JSON.stringify({ [long('k', 50)]: 1 }));
    expect(skimJson(key, 0, key.length, { longBytes: 20, accept: () => true })).toBeUndefined();
  });
});
