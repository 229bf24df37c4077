/**
 * Realistic Claude Code transcripts, generated: sessions of prompts, replies split over lines that share a
 * message id, tool calls with results (some large, some failing), corrections, refusals and meta lines,
 * with the shapes of the formats reference. Deterministic for a seed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The middle value (the upper one of an even count); 0 for none. */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const prompts = [
  'The checkout tests fail on main since the last merge, find out why and fix it',
  'Add a --dry-run flag to the import script so I can see what would change',
  'Why is product search so slow on staging? Look at the queries',
  'Refactor the order state machine so pending orders time out after an hour',
  'Write tests for the webhook handler, it has none',
  'Upgrade the project to Node 20 and fix whatever breaks',
];
const corrections = [
  "no, that's not what I asked — keep the old behaviour and only add the flag",
  'this project uses pnpm, not npm',
  "don't ask me, just run the migration yourself",
  'that still fails, did you even run the tests?',
  'stop, revert that change to the config',
];
const replies = [
  "I'll start by reading the test output and the recent changes to the checkout module.",
  'The failure comes from the tax rate being read once at import time, so the test override never applies.',
  'Done: the flag is parsed in main() and passed down; each row is printed instead of written.',
  'I found the slow query: the search joins the variants table without an index on product_id.',
  'Want me to run the migration on staging now?',
  'It turns out the handler retries on every 5xx, including the ones we send on purpose.',
];
const commands = [
  'npm test -- checkout',
  'pnpm run lint',
  'git diff HEAD~1 -- src/',
  'node scripts/import.js --dry-run',
  'psql -c "select 1"',
];

function uuid(random: () => number): string {
  const hex = () => Math.floor(random() * 16).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join('');
  return `${part(8)}-${part(4)}-4${part(3)}-a${part(3)}-${part(12)}`;
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function output(random: () => number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = `  ${pick(random, ['✓', '✓', '✓', '×'])} src/${pick(random, ['orders', 'checkout', 'search', 'import'])}/${Math.floor(random() * 999)}.test.ts (${Math.floor(random() * 40)} tests) ${Math.floor(random() * 900)}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** One session as JSONL text. */
export function generateSession(
  random: () => number,
  session: string,
  cwd: string,
  start: number,
  turns: number,
): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let clock = start;
  const base = () => ({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId: session,
    version: '2.1.123',
    gitBranch: 'main',
  });
  const push = (record: Record<string, unknown>) => {
    const id = uuid(random);
    clock += Math.floor(random() * 20_000);
    lines.push(JSON.stringify({ ...base(), ...record, uuid: id, timestamp: new Date(clock).toISOString() }));
    parent = id;
  };
  for (let turn = 0; turn < turns; turn++) {
    const said = turn > 0 && random() < 0.15 ? pick(random, corrections) : pick(random, prompts);
    push({ type: 'user', message: { role: 'user', content: said } });
    const steps = 1 + Math.floor(random() * 6);
    for (let step = 0; step < steps; step++) {
      const messageId = `msg_${uuid(random).replace(/-/g, '').slice(0, 24)}`;
      const requestId = `req_${uuid(random).replace(/-/g, '').slice(0, 24)}`;
      push({
        type: 'assistant',
        requestId,
        message: {
          id: messageId,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: pick(random, replies) }],
          stop_reason: null,
          usage: { input_tokens: 3, output_tokens: 120 },
        },
      });
      const callId = `toolu_${uuid(random).replace(/-/g, '').slice(0, 24)}`;
      const command = pick(random, commands);
      push({
        type: 'assistant',
        requestId,
        message: {
          id: messageId,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [
            {
              type: 'tool_use',
              id: callId,
              name: 'Bash',
              input: { command, description: `Run ${command.split(' ')[0]}` },
            },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 3, output_tokens: 80 },
        },
      });
      const fails = random() < 0.08;
      const refused = !fails && random() < 0.01;
      const big =
        random() < 0.25 ? 8_000 + Math.floor(random() * 40_000) : 200 + Math.floor(random() * 1_500);
      const text = refused
        ? "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."
        : fails
          ? `Exit code 1\n${pick(random, ['Error: Cannot find module ./checkout/tax', 'npm ERR! Missing script: "lint"', 'bash: pnpm: command not found'])}\n${output(random, 300)}`
          : output(random, big);
      push({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: callId, content: text, is_error: fails || refused }],
        },
        toolUseResult: refused
          ? 'User rejected tool use'
          : fails
            ? `Error: ${text.slice(0, 80)}`
            : { stdout: text.slice(0, 2000), stderr: '', interrupted: false },
      });
      if (random() < 0.1)
        lines.push(
          JSON.stringify({
            type: 'file-history-snapshot',
            messageId,
            snapshot: { messageId, trackedFileBackups: {}, timestamp: new Date(clock).toISOString() },
            isSnapshotUpdate: false,
          }),
        );
      if (refused) break;
    }
  }
  lines.push(
    JSON.stringify({
      type: 'system',
      subtype: 'turn_duration',
      durationMs: 88_947,
      uuid: uuid(random),
      parentUuid: parent,
      sessionId: session,
    }),
  );
  return `${lines.join('\n')}\n`;
}

/** Writes sessions under `<dir>/projects/<project>/<session>.jsonl` until `totalBytes` is reached. */
export function generateTranscripts(
  dir: string,
  totalBytes: number,
  seed = 7,
): { files: number; bytes: number } {
  const random = seeded(seed);
  let bytes = 0;
  let files = 0;
  let start = Date.UTC(2026, 0, 1);
  while (bytes < totalBytes) {
    const project = `-home-dev-project-${files % 7}`;
    const folder = join(dir, 'projects', project);
    mkdirSync(folder, { recursive: true });
    const session = uuid(random);
    const text = generateSession(
      random,
      session,
      `/home/dev/project-${files % 7}`,
      start,
      8 + Math.floor(random() * 30),
    );
    writeFileSync(join(folder, `${session}.jsonl`), text);
    bytes += Buffer.byteLength(text);
    files++;
    start += 3_600_000;
  }
  return { files, bytes };
}
