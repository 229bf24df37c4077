/**
 * Lines built to be awkward for a reader: result texts for each of its paths, long strings in every place a line can
 * hold them, raw lines no serializer writes, and mutations of generated lines. Used by `awkward-transcripts.ts`.
 */
export const INTERRUPT = '[Request interrupted by user]';
export const REFUSED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nuse yarn, not npm";

/** Result texts that take the reader down each of its paths. */
export const resultTexts: readonly unknown[] = [
  INTERRUPT,
  `  ${INTERRUPT}\n`,
  '[Request interrupted by user for tool use]',
  REFUSED,
  `\n   ${REFUSED}`,
  'Permission for this tool use was denied. The user said:\r\nnot now',
  'Exit code 2\nnpm ERR! Missing script: "lint"',
  `${' '.repeat(900)}Exit code 1\nboom`,
  `${' '.repeat(5000)}Exit code 3\nboom`,
  `\n\n  Error: Cannot find module './tax'\n${'x'.repeat(300)}`,
  'output that mentions "uuid":"fake", "is_error":true and "type":"assistant" in passing',
  `ok ${INTERRUPT} in the middle, and The user doesn't want to proceed, quoted`,
  `${'é'.repeat(199)}😀${'ü'.repeat(700)}`,
  `${'a'.repeat(199)}😀 and a lone \ud83d surrogate`,
  `tabs\tand\u0000nulls\u001f and \u2028 separators`,
  '',
  '   ',
  [{ type: 'text', text: 'first block' }, { type: 'image' }, { type: 'text', text: 'second block' }],
  [{ type: 'text', text: INTERRUPT }],
  [],
  42,
  null,
];

export type Mutation = (line: string, random: () => number) => string | Buffer;
export type Json = Record<string, unknown>;

export const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)]!;

/** The first tool_result block of a user line, if it has one. */
function resultBlock(record: Json): Json | undefined {
  const content = (record['message'] as Json | undefined)?.['content'];
  return Array.isArray(content)
    ? (content as Json[]).find((block) => block['type'] === 'tool_result')
    : undefined;
}

function edit(change: (record: Json, random: () => number) => void): Mutation {
  return (line, random) => {
    const record = JSON.parse(line) as Json;
    change(record, random);
    return JSON.stringify(record);
  };
}

/** Ways a transcript line can differ from what the generator writes, each still a line an agent might leave. */
export const mutations: readonly Mutation[] = [
  (line) => JSON.stringify(JSON.parse(line), null, 1).replace(/\n */g, ' '),
  (line) => {
    const { type, uuid, timestamp, ...rest } = JSON.parse(line) as Json;
    return JSON.stringify({ uuid, timestamp, ...rest, type });
  },
  (line) => line.replace('"uuid":', '"\\u0075uid":'),
  (line) => line.replace('"type":"user"', '"type":"\\u0075ser"').replace('"is_error":', '"is_\\u0065rror":'),
  (line) => `{"uuid":"first-of-two","type":"assistant","is_error":true,${line.slice(1)}`,
  (line, random) =>
    `${line.slice(0, -1)},${pick(random, ['"type":"assistant"', '"isSidechain":true', '"timestamp":7', '"cwd":"/elsewhere"', '"toolUseResult":"User rejected tool use"', '"isMeta":true'])}}`,
  edit((record) => {
    record['toolUseResult'] = {
      uuid: 'nested',
      type: 'assistant',
      is_error: true,
      parentUuid: 'nested-parent',
      stdout: INTERRUPT,
    };
    const message = record['message'] as Json | undefined;
    if (message) message['extra'] = { uuid: 'deeper', content: [{ type: 'tool_result', is_error: true }] };
  }),
  edit((record, random) => {
    const block = resultBlock(record);
    if (block) block['is_error'] = pick(random, [true, 'true', 1, null, false, undefined]);
  }),
  edit((record, random) => {
    const block = resultBlock(record);
    if (block) block['content'] = pick(random, resultTexts);
  }),
  edit((record, random) => {
    const block = resultBlock(record);
    if (block) block['content'] = '';
    record['toolUseResult'] = pick(random, ['Error: the string stands in for the content', '  ', REFUSED]);
  }),
  edit((record, random) => {
    record[pick(random, ['toolDenialKind', 'isMeta', 'isCompactSummary', 'agentId', 'isSidechain'])] = pick(
      random,
      [true, 'yes', ''],
    );
  }),
  edit((record) => {
    const message = record['message'] as Json | undefined;
    const content = message?.['content'];
    if (Array.isArray(content)) {
      content.push({ type: 'text', text: 'and one more thing' }, { type: 'tool_result', content: 'second' });
    }
  }),
  (line) => `${line}\r`,
  (line) => `  ${line}  `,
  (line) => `\ufeff${line}`,
  (line) => line.replace('\\n', '\t'),
  (line) => line.replace('\\n', '\\q'),
  (line, random) => line.slice(0, Math.floor(random() * line.length)),
  (line) => `${line}x`,
  (line) => `${line.slice(0, -1)},}`,
  (line, random) => {
    const at = line.indexOf('\\n');
    if (at < 0) return line;
    const bad = pick(random, [[0xff], [0xc3], [0xe2, 0x9c], [0xf0, 0x9f, 0x98], [0x80, 0x80]]);
    return Buffer.concat([Buffer.from(line.slice(0, at)), Buffer.from(bad), Buffer.from(line.slice(at))]);
  },
  (line, random) =>
    line.replace(
      /"output_tokens":\d+/,
      `"output_tokens":${pick(random, ['080', '8e1', '-0', '1.', '.5', '+1', '1E+2'])}`,
    ),
  (line) => line.replace('false', 'fals').replace('null', 'nul'),
  (line) => line.replace('\\n', '\\u0000\\/\\b'),
  (line, random) =>
    `${line}\n${pick(random, ['', '   ', 'null', '[1,2]', '"a string"', '42', '{}', '{"type":7}', '{"type":"odd-kind"}'])}`,
];

/** Text of at least `bytes` UTF-8 bytes, `unit` repeated. */
const filler = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));

/** Long result texts: heads that decide the turn, and what lies past the head a successful result reads. */
export const longTexts: readonly string[] = [
  filler('ok line\n', 12_000),
  `Exit code 2\n${filler('npm ERR! missing\n', 12_000)}`,
  `${' '.repeat(3000)}Exit code 1\n${'y'.repeat(9000)}`,
  `${' '.repeat(9000)}Exit code 1\nboom`,
  `Exit code 4${' '.repeat(5000)}\nrest`,
  `${'\n'.repeat(5000)}${'z'.repeat(5000)}`,
  `${'x'.repeat(8191)}😀${'x'.repeat(3000)}`,
  `${'x'.repeat(8191)}\ud83d${'x'.repeat(3000)}`,
  `${'é'.repeat(4000)}${filler('✓ passed\n', 9000)}`,
  filler('\u001b[32m✓\u001b[0m ok\u0000\n', 12_000),
  filler('say "hi" \\ and \\" then /\n', 12_000),
  filler('中文输出，没有问题\n', 12_000),
  `${filler('\u2028\u00a0\ufeff', 3000)}Exit code 5\n${'w'.repeat(2000)}`,
  `${REFUSED}\n${'r'.repeat(12_000)}`,
  `Permission for this tool use was denied${'!'.repeat(3000)}`,
  `${' '.repeat(600)}The user doesn't want to proceed${'.'.repeat(2000)}`,
  `${INTERRUPT}${' '.repeat(2000)}`,
  ' '.repeat(2000),
  ' '.repeat(10_000),
];

/** Lines that put a long string where the reader reads it whole, or not at all, or only in part. */
export function longPlacements(long: string, id: string): Json[] {
  const result = (content: unknown, extra: Json = {}): Json => ({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
    ...extra,
  });
  const assistant = (content: unknown[]): Json => ({
    type: 'assistant',
    message: { id: `msg_${id}`, role: 'assistant', model: 'claude-sonnet-4-5', content },
  });
  return [
    assistant([
      { type: 'thinking', thinking: long, signature: 'S'.repeat(2000) },
      { type: 'text', text: 'short' },
    ]),
    assistant([{ type: 'text', text: `Long reply.\n\n${long}` }]),
    assistant([{ type: 'tool_use', id, name: 'Write', input: { file_path: '/tmp/x', content: long } }]),
    assistant([{ type: 'tool_use', id, name: 'Mcp', input: { payload: long } }]),
    assistant([{ type: 'tool_result', tool_use_id: id, content: long }]),
    {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', data: 'A'.repeat(5000) } },
          { type: 'tool_result', tool_use_id: id, content: long },
        ],
      },
    },
    result([{ type: 'text', text: long }]),
    result([
      { type: 'text', text: 'first' },
      { type: 'text', text: long },
    ]),
    result(long, { toolUseResult: { stdout: long, stderr: '', interrupted: false } }),
    result('', { toolUseResult: long }),
    result('  ', { toolUseResult: long }),
    result(long, { toolUseResult: long }),
    result(long, { toolDenialKind: 'denied' }),
    result(long, { ['k'.repeat(2000)]: 1 }),
    result(long, { note: '\u0000skim:0' }),
    result(long, { '\u0000skim:0': 'x' }),
    result(long, { cwd: `/${'d'.repeat(2000)}` }),
    result(long, { isCompactSummary: true }),
    { type: 'user', message: { role: 'user', content: long } },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: long },
          { type: 'text', text: 'more' },
        ],
      },
    },
    {
      type: 'user',
      isCompactSummary: true,
      message: { role: 'user', content: [{ type: 'image', text: long }] },
    },
    { type: 'user', message: { role: 'user', content: [{ type: `x${'x'.repeat(2000)}`, text: long }] } },
    { type: 'queue-operation', operation: 'remove', content: long },
    { type: 'system', subtype: 'informational', content: long },
  ];
}

/** Raw lines a serializer would not write: repeated keys, and long strings that are not valid JSON. */
export function rawLongLines(long: string, id: string): string[] {
  const text = JSON.stringify(long);
  const block = (content: string) => `{"type":"tool_result","tool_use_id":"${id}","content":${content}}`;
  const line = (blocks: string, extra = '') =>
    `{"type":"user","message":{"role":"user","content":[${blocks}]}${extra},"uuid":"raw-${id}","timestamp":"2026-03-02T00:00:00.000Z"}`;
  return [
    line(`{"type":"tool_result","tool_use_id":"${id}","content":${text},"content":"short"}`),
    line(`{"type":"tool_result","tool_use_id":"${id}","content":"short","content":${text}}`),
    line(block('"x"'), `,"toolUseResult":${text},"toolUseResult":{"a":1}`),
    line(block(text), `,"toolUseResult":{"stdout":${text}},"toolUseResult":${text}`),
    line(block(`${text.slice(0, 3000)}\\q${text.slice(3000)}`)),
    line(block(`${text.slice(0, 5000)}\t${text.slice(5000)}`)),
    line(block(`${text.slice(0, 5000)}\\u12${text.slice(5000)}`)),
    line(block(`${text.slice(0, 5000)}\\u00e9\\ud83d\\ude00\\u0041${text.slice(5000)}`)),
    line(block(`"${'x'.repeat(8190)}\\ud83d\\ude00${'y'.repeat(100)}"`)),
    line(block(`"${'x'.repeat(8188)}\\\\\\"${'y'.repeat(1000)}"`)),
    line(block(text.slice(0, -1))),
    `${line(block(text))} trailing`,
  ];
}
