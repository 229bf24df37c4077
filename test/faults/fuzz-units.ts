/**
 * The functions that read what comes from outside, on bad input: the transcript readers, the event reader,
 * hook payloads and protocol records. None may throw; every refusal names its reason; nothing damaged is
 * taken as valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { generateSession, seeded } from '../../bench/_generate.ts';
import { parsePayload } from '../../src/prime/index.ts';
import { generateIdentity, parseRecordLine, signRecord } from '../../src/protocol/index.ts';
import {
  claudeCodeReader,
  codexReader,
  type LineResult,
  parseEventLine,
  proxyLogReader,
  type Reader,
} from '../../src/stream/index.ts';
import { specstoryReader, specstorySessionLines } from '../../src/stream/specstory.ts';
import { repoRoot } from '../helpers/remem.ts';
import { CLI, CURSOR, OLDER, PRINTED_FAILURE } from '../stream/specstory-exports.ts';
import { generateEvents } from './corpus.ts';
import {
  badText,
  checkProperty,
  damagedText,
  damagedValue,
  type FuzzOptions,
  type FuzzOutcome,
} from './fuzz-kit.ts';

function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Valid lines of each format, to damage. */
export function validLines() {
  const fixtures = join(repoRoot, 'test', 'fixtures');
  const claude = [
    ...linesOf(generateSession(seeded(3), 'a1b2c3d4-0000-4000-a000-000000000001', '/home/dev/shop', 0, 6)),
    ...filesUnder(join(fixtures, 'claude')).flatMap((file) => linesOf(readFileSync(file, 'utf8'))),
  ];
  const codex = filesUnder(join(fixtures, 'codex')).flatMap((file) => linesOf(readFileSync(file, 'utf8')));
  const proxy = [
    JSON.stringify({
      at: '2026-03-01T10:00:00.000Z',
      session: 's',
      api: 'chat',
      user: ['hi'],
      reply: 'hello',
      partial: false,
    }),
    JSON.stringify({
      at: '2026-03-01T10:01:00.000Z',
      session: 's',
      api: 'anthropic',
      user: ['no, use pnpm'],
      reply: 'ok',
      partial: true,
    }),
  ];
  const events = linesOf(generateEvents(40, 5));
  const payloads = [
    { hook_event_name: 'UserPromptSubmit', session_id: 's1', cwd: '/home/dev/shop', prompt: 'run the tests' },
    {
      hook_event_name: 'Stop',
      session_id: 's1',
      last_assistant_message: 'Want me to deploy?',
      stop_hook_active: false,
    },
    {
      hook_event_name: 'PreToolUse',
      session_id: 's1',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
    },
  ].map((payload) => JSON.stringify(payload));
  return { claude, codex, proxy, events, payloads };
}

const TURN_TYPES = new Set(['prompt', 'reply', 'call', 'result', 'interrupt', 'compaction', 'link']);

/** What is wrong with a reader's answer for `value` on line `line`, or null. */
function readerProblem(value: unknown, line: number, result: LineResult): string | null {
  if (!Array.isArray(result.turns)) return 'turns is not a list';
  if (result.warning !== undefined && (typeof result.warning !== 'string' || result.warning.trim() === ''))
    return 'a warning without a reason';
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject && result.warning === undefined)
    return 'a value that is not an object passed without a warning';
  if (!isObject && result.turns.length > 0) return 'turns from a value that is not an object';
  for (const turn of result.turns) {
    if (turn.line !== line) return `a turn on line ${turn.line}, not ${line}`;
    if (!TURN_TYPES.has(turn.type)) return `a turn of type ${String(turn.type)}`;
    if ('text' in turn && typeof turn.text !== 'string') return `a ${turn.type} whose text is not a string`;
    // Turns are stored as JSON.
    JSON.stringify(turn);
  }
  return null;
}

function readerProperty(name: string, reader: Reader, valid: string[], options: FuzzOptions) {
  const values = valid.map((line) => JSON.parse(line) as unknown);
  return checkProperty(
    `${name}.parseLine`,
    fc.oneof(fc.anything(), fc.jsonValue(), damagedValue(values), damagedValue(values)),
    (value) => readerProblem(value, 7, reader.parseLine(value, 7)),
    options,
  );
}

/** Where the Claude Code reader skims a long line from its bytes, it answers exactly as parsing it whole. */
function skimProperty(valid: string[], options: FuzzOptions) {
  const long = valid.filter((line) => Buffer.byteLength(line) >= 1024);
  const values = long.map((line) => JSON.parse(line) as unknown);
  const skim = claudeCodeReader.skimLine!;
  return checkProperty(
    'claudeCodeReader.skimLine',
    fc.oneof(
      damagedValue(values).map((value) => JSON.stringify(value) ?? ''),
      damagedText(long),
      fc
        .uint8Array({ minLength: 1024, maxLength: 3000 })
        .map((bytes) => Buffer.from(bytes).toString('latin1')),
    ),
    (text) => {
      const bytes = Buffer.from(`xx${text}yy`, 'utf8');
      const skimmed = skim(bytes, 2, bytes.length - 2, 3);
      if (skimmed === undefined) return null;
      let value: unknown;
      try {
        value = JSON.parse(bytes.toString('utf8', 2, bytes.length - 2));
      } catch {
        return 'skimmed a line that is not JSON';
      }
      const whole = claudeCodeReader.parseLine(value, 3);
      return JSON.stringify(skimmed) === JSON.stringify(whole)
        ? null
        : 'skimmed differently from parsing whole';
    },
    options,
  );
}

function eventProperty(valid: string[], options: FuzzOptions) {
  return checkProperty(
    'parseEventLine',
    badText(valid),
    (text) => {
      const result = parseEventLine(text, 3);
      if ('event' in result) {
        const value = JSON.parse(text) as Record<string, unknown>;
        return typeof value === 'object' && value !== null && typeof result.event.kind === 'string'
          ? null
          : 'took something that is not an event';
      }
      return /^line 3: \S/.test(result.error)
        ? null
        : `a refusal without its line and reason: ${result.error}`;
    },
    options,
  );
}

function payloadProperty(valid: string[], options: FuzzOptions) {
  return checkProperty(
    'parsePayload',
    fc.oneof(badText(valid), fc.string({ unit: 'binary' })),
    (raw) => {
      const payload = parsePayload(raw);
      if ('refused' in payload) return payload.refused.trim() ? null : 'a refusal without a reason';
      if (!payload.session) return 'a payload without a session';
      return typeof payload.prompt === 'string' && typeof payload.lastAssistantMessage === 'string'
        ? null
        : 'a payload whose text is not a string';
    },
    options,
  );
}

/** Signed records from two memories, each kind. */
export function signedLines(): string[] {
  const [one, two] = [generateIdentity(), generateIdentity()];
  const lesson = signRecord(one, {
    kind: 'error',
    text: 'The build fails when the cache directory is missing.',
    seen: 2,
    strength: 1.5,
    updated: '2026-03-01T10:00:00.000Z',
  });
  const hash = JSON.parse(lesson).hash as string;
  return [
    lesson,
    signRecord(two, {
      kind: 'correction',
      text: 'The person said the project uses pnpm, not npm — “é” and 日本 kept as written.',
      seen: 1,
      strength: 1,
      updated: '2026-03-02T10:00:00.000Z',
      parents: [hash],
    }),
    signRecord(two, { confirm: hash, updated: '2026-03-03T10:00:00.000Z' }),
    signRecord(one, { revoke: hash, updated: '2026-03-04T10:00:00.000Z' }),
  ];
}

function recordProperty(valid: string[], options: FuzzOptions) {
  const accepted = new Set(valid);
  return checkProperty(
    'parseRecordLine',
    fc.oneof(
      badText(valid),
      damagedText(valid),
      damagedText(valid),
      fc.uint8Array({ maxLength: 400 }),
      fc
        .tuple(fc.constantFrom(...valid), fc.uint8Array({ minLength: 1, maxLength: 4 }), fc.nat())
        .map(([line, bytes, at]) => {
          const raw = Buffer.from(line);
          const cut = at % raw.length;
          return Buffer.concat([raw.subarray(0, cut), Buffer.from(bytes), raw.subarray(cut + 1)]);
        }),
    ),
    (input) => {
      const result = parseRecordLine(input);
      if ('refused' in result) {
        return result.refused.trim() && typeof result.code === 'string' ? null : 'a refusal without a reason';
      }
      const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
      return accepted.has(text.replace(/\r?\n$/, '')) ? null : 'took a damaged record as valid';
    },
    options,
  );
}

/**
 * A SpecStory export of each version (and one whose shell call says it failed only in what it printed), however
 * damaged, becomes lines the reader takes, each turn well formed, or nothing.
 */
function specstoryProperty(texts: string[], options: FuzzOptions) {
  return checkProperty(
    'specstorySessionLines',
    fc.oneof(damagedText(texts), damagedText(texts), fc.string({ unit: 'binary', maxLength: 400 })),
    (text) => {
      const read = specstorySessionLines(text, '2025-08-06_10-30Z-chat.md', '/work/shop');
      if (read === null) return null;
      for (const [index, line] of read.bytes.toString('utf8').split('\n').entries()) {
        if (line === '') continue;
        const problem = readerProblem(
          JSON.parse(line) as unknown,
          index + 1,
          specstoryReader.parseLine(JSON.parse(line), index + 1),
        );
        if (problem) return `line ${index + 1}: ${problem}`;
      }
      return null;
    },
    options,
  );
}

/** Every pure reader of outside input, `numRuns` inputs each. */
export async function fuzzUnits(options: FuzzOptions): Promise<FuzzOutcome[]> {
  const valid = validLines();
  return [
    await readerProperty('claudeCodeReader', claudeCodeReader, valid.claude, options),
    await readerProperty('codexReader', codexReader, valid.codex, options),
    await readerProperty('proxyLogReader', proxyLogReader, valid.proxy, options),
    await skimProperty(valid.claude, options),
    await eventProperty(valid.events, options),
    await payloadProperty(valid.payloads, options),
    await recordProperty(signedLines(), options),
    await specstoryProperty([OLDER.text, CURSOR.text, CLI.text, PRINTED_FAILURE.text], options),
  ];
}
