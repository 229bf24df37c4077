/**
 * What the fault cases work on: many generated Claude Code sessions and a file of events, large enough that
 * `remem ingest`, `remem sleep` and `remem run` take long enough to be stopped midway. Deterministic for a seed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSession, seeded } from '../../bench/_generate.ts';

export interface Corpus {
  /** The Claude Code folder (`--claude`, or `CLAUDE_CONFIG_DIR`). */
  claude: string;
  /** The events file (`--events`). */
  events: string;
  files: number;
  bytes: number;
  eventCount: number;
}

const tools = ['npm', 'pnpm', 'cargo', 'pytest', 'make', 'docker', 'terraform', 'psql', 'kubectl', 'go'];
const targets = [
  'the checkout service',
  'the billing worker',
  'the search index',
  'the import script',
  'the web client',
  'the nightly export',
  'the auth gateway',
  'the staging database',
];
const wrongs = [
  'used the production config',
  'ran the whole test suite',
  'edited the generated file',
  'skipped the migration',
  'pinned the old version',
  'deleted the lock file',
];
const rights = [
  'use the staging config',
  'run only the failing test',
  'edit the template instead',
  'run the migration first',
  'take the latest release',
  'keep the lock file',
];
const failures = [
  'Missing script: "lint"',
  'command not found',
  'connection refused on port 5432',
  'permission denied',
  'no such file or directory',
  'unknown flag --fast',
  'exit status 2',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** One event line: corrections, errors and surprises that repeat often enough to become lessons. */
export function generateEvent(random: () => number, n: number, day: number): Record<string, unknown> {
  const at = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 + (n % 1000) * 60_000).toISOString();
  const session = `events-${day}-${n % 50}`;
  const cwd = `/home/dev/project-${n % 5}`;
  const roll = random();
  const target = pick(random, targets);
  if (roll < 0.35) {
    const which = Math.floor(random() * wrongs.length);
    return {
      kind: 'correction',
      said: `no, for ${target} ${rights[which]}, you ${wrongs[which]} again (${n % 17})`,
      agent_did: `I ${wrongs[which]} for ${target}.`,
      agent: 'claude-code',
      session,
      cwd,
      at,
    };
  }
  if (roll < 0.8) {
    const tool = pick(random, tools);
    return {
      kind: 'error',
      title: `Bash: ${tool} ${pick(random, ['test', 'build', 'lint', 'deploy', 'run'])} ${target}`,
      happened: `${tool}: ${pick(random, failures)}`,
      agent: 'claude-code',
      session,
      cwd,
      at,
    };
  }
  if (roll < 0.95) {
    return {
      kind: 'surprise',
      expected: `${target} to answer 200`,
      happened: `${target} answered ${pick(random, ['301 to /login', '502', 'an empty body', 'a stale cache'])}`,
      agent: 'claude-code',
      session,
      cwd,
      at,
    };
  }
  return { kind: 'note', text: `${target} is owned by team ${n % 7}`, session, at };
}

/** Events spread over `days` days, as JSONL text. */
export function generateEvents(count: number, seed: number, days = 30, firstDay = 0): string {
  const random = seeded(seed);
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    lines.push(JSON.stringify(generateEvent(random, n, firstDay + Math.floor((n * days) / count))));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `files` short sessions (a few dozen KB each) under `<root>/claude/projects/…` and `events` events
 * in `<root>/events.jsonl`.
 */
export function writeCorpus(root: string, options: { files: number; events: number; seed?: number }): Corpus {
  const seed = options.seed ?? 11;
  const random = seeded(seed);
  const claude = join(root, 'claude');
  let bytes = 0;
  let start = Date.UTC(2026, 0, 1);
  for (let file = 0; file < options.files; file++) {
    const folder = join(claude, 'projects', `-home-dev-project-${file % 5}`);
    mkdirSync(folder, { recursive: true });
    const session = `0000${file.toString(16).padStart(4, '0')}-1111-4222-a333-${seed.toString(16).padStart(12, '0')}`;
    const text = generateSession(random, session, `/home/dev/project-${file % 5}`, start, 3 + (file % 6));
    writeFileSync(join(folder, `${session}.jsonl`), text);
    bytes += Buffer.byteLength(text);
    start += 3_600_000;
  }
  const events = join(root, 'events.jsonl');
  const eventText = generateEvents(options.events, seed + 1);
  writeFileSync(events, eventText);
  bytes += Buffer.byteLength(eventText);
  return { claude, events, files: options.files, bytes, eventCount: options.events };
}
