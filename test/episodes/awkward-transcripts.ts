/**
 * Transcripts built to be awkward for a reader: generated sessions with lines mutated in every way an agent or a
 * disk might leave them, one session that runs every result text past every flag, and one of long strings in every
 * place a line can hold them. Deterministic; used by `equivalence.test.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateSession, seeded } from '../../bench/_generate.ts';
import {
  INTERRUPT,
  type Json,
  longPlacements,
  longTexts,
  type Mutation,
  mutations,
  pick,
  rawLongLines,
  resultTexts,
} from './awkward-lines.ts';

/** Generated sessions with one line in three changed by a mutation. */
export function writeMutatedSessions(dir: string): void {
  const random = seeded(29);
  for (let file = 0; file < 6; file++) {
    const session = `0000000${file}-aaaa-4bbb-8ccc-dddddddddddd`;
    const text = generateSession(
      random,
      session,
      `/home/dev/awkward-${file % 2}`,
      Date.UTC(2026, 1, file),
      12,
    );
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => (random() < 0.35 ? pick(random, mutations)(line, random) : line));
    writeLines(join(dir, 'projects', `-home-dev-awkward-${file % 2}`, `${session}.jsonl`), lines);
  }
}

/** One session that runs every result text, error flag and mutation past the reader, each after its call. */
export function writeSystematicSession(dir: string): void {
  const random = seeded(31);
  const session = '11111111-aaaa-4bbb-8ccc-dddddddddddd';
  const lines: (string | Buffer)[] = [];
  let parent: string | null = null;
  let n = 0;
  const push = (record: Json, mutation?: Mutation) => {
    const uuid = `u-${++n}`;
    const line = JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      cwd: '/home/dev/systematic',
      sessionId: session,
      ...record,
      uuid,
      timestamp: new Date(Date.UTC(2026, 2, 1) + n * 1000).toISOString(),
    });
    lines.push(mutation ? mutation(line, random) : line);
    parent = uuid;
  };
  const prompts = [
    'please run the tests',
    INTERRUPT,
    '[Request interrupted by user for tool use]',
    'This session is being continued from a previous conversation that ran out of context.',
    '<command-name>/clear</command-name>',
    "no, that's not what I asked",
  ];
  for (const [index, content] of resultTexts.entries()) {
    push({ type: 'user', message: { role: 'user', content: prompts[index % prompts.length] } });
    for (const isError of [true, false, undefined]) {
      for (const mutation of [undefined, ...mutations]) {
        const id = `toolu_${n}`;
        push({
          type: 'assistant',
          message: {
            id: `msg_${n}`,
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [
              {
                type: 'tool_use',
                id,
                name: 'Bash',
                input: { command: 'npm test', description: 'Run tests' },
              },
            ],
          },
        });
        const block: Json = { type: 'tool_result', tool_use_id: id, content };
        if (isError !== undefined) block['is_error'] = isError;
        push(
          { type: 'user', message: { role: 'user', content: [block] }, toolUseResult: { stdout: 'x' } },
          mutation,
        );
      }
    }
  }
  writeLines(join(dir, 'projects', '-home-dev-systematic', `${session}.jsonl`), lines);
}

function writeLines(path: string, lines: readonly (string | Buffer)[]): void {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, Buffer.concat(lines.flatMap((line) => [Buffer.from(line), Buffer.from('\n')])));
}

/** One session of long strings, each placement after a call, with one line in five mutated. */
export function writeLongStringSession(dir: string): void {
  const random = seeded(37);
  const session = '22222222-aaaa-4bbb-8ccc-dddddddddddd';
  const lines: (string | Buffer)[] = [];
  let parent: string | null = null;
  let n = 0;
  const stamp = (record: Json): string => {
    const uuid = `l-${++n}`;
    const line = JSON.stringify({
      parentUuid: parent,
      cwd: '/home/dev/long',
      sessionId: session,
      ...record,
      uuid,
      timestamp: new Date(Date.UTC(2026, 3, 1) + n * 1000).toISOString(),
    });
    parent = uuid;
    return line;
  };
  for (const [index, long] of longTexts.entries()) {
    lines.push(stamp({ type: 'user', message: { role: 'user', content: `please look at case ${index}` } }));
    const placements = [
      ...[true, false, undefined].map((isError) => ({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${index}`, content: long, is_error: isError }],
        },
        toolUseResult: pick(random, [
          { stdout: long.slice(0, 4000) },
          long,
          'User rejected tool use',
          'short',
          undefined,
        ]),
      })),
      ...longPlacements(long, `toolu_${index}`),
    ];
    for (const record of placements) {
      lines.push(
        stamp({
          type: 'assistant',
          message: {
            id: `msg_${n}`,
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'Bash', input: { command: 'make' } }],
          },
        }),
      );
      const line = stamp(record);
      lines.push(random() < 0.2 ? pick(random, mutations)(line, random) : line);
    }
    lines.push(...rawLongLines(long, `toolu_${index}`));
  }
  writeLines(join(dir, 'projects', '-home-dev-long', `${session}.jsonl`), lines);
}
