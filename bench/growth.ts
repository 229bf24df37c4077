/**
 * A replayed year of a heavy user: 50 sessions a day (a few as Claude Code transcripts, the rest as the events
 * their surprises would send), replayed night by night through the commands the nightly job runs — `remem
 * ingest`, `remem sleep`, `remem render` — with REMEM_NOW. Per month: the store's size, the memory folder an
 * agent loads at session start, the tokens a session is primed with, and how long a night's sleep takes.
 * Most surprises recur (the same mistakes), some are new each week, so lessons keep arriving and fading.
 *
 * `npm run bench -- growth [days=365] [sessions-per-day=50]`
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../src/core/index.ts';
import { answerHook, appendSessionLog, parsePayload } from '../src/prime/index.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { eventKey, parseEventLine } from '../src/stream/index.ts';
import { generateSession, median, seeded } from './_generate.ts';

const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'remem.js');
const FIRST_DAY = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

export interface GrowthOptions {
  days: number;
  sessionsPerDay: number;
  seed?: number;
  /** Transcripts among each day's sessions (the rest are events). */
  transcriptsPerDay?: number;
  /** Sessions primed at each month's end to measure the tokens a session gets. */
  primedSessions?: number;
  /** Called after each night. */
  onNight?: (night: GrowthNight) => void;
  /** The `remem` to run; the repository's build unless given. */
  binary?: string;
}

export interface GrowthNight {
  day: number;
  ingestMs: number;
  sleepMs: number;
  renderMs: number;
}

export interface GrowthMonth {
  month: string;
  nights: number;
  episodes: number;
  lessons: number;
  /** Lessons an agent may see (not archived, merged or vetoed). */
  shown: number;
  storeMB: number;
  homeMB: number;
  /** The rendered memory folders: every file, and the MEMORY.md an agent loads at session start. */
  folderKB: number;
  indexTokens: number;
  /** Tokens the hooks put before the agent over one session's prompts (mean and most, over the sampled sessions). */
  primeTokens: number;
  primeTokensMax: number;
  /** Median over the month's nights. */
  ingestMs: number;
  sleepMs: number;
}

export interface GrowthResult {
  months: GrowthMonth[];
  failures: string[];
  nights: number;
  sessions: number;
  /** Distinct events the replayed sessions sent, and the event episodes the store holds at the end. */
  eventsWritten: number;
  eventsStored: number;
}

const tools = ['npm', 'pnpm', 'cargo', 'pytest', 'make', 'docker', 'terraform', 'psql', 'kubectl', 'go'];
const verbs = ['test', 'build', 'lint', 'deploy', 'run', 'migrate'];
const coreTargets = [
  'the checkout service',
  'the billing worker',
  'the search index',
  'the import script',
  'the web client',
  'the nightly export',
  'the auth gateway',
  'the staging database',
  'the mobile app',
  'the analytics pipeline',
];
const nouns = [
  'cache',
  'queue',
  'scheduler',
  'gateway',
  'exporter',
  'parser',
  'dashboard',
  'webhook',
  'cron job',
];
const adjectives = ['legacy', 'new', 'shared', 'internal', 'public', 'batch', 'realtime'];
const wrongs = [
  ['used the production config', 'use the staging config'],
  ['ran the whole test suite', 'run only the failing test'],
  ['edited the generated file', 'edit the template instead'],
  ['skipped the migration', 'run the migration first'],
  ['pinned the old version', 'take the latest release'],
  ['deleted the lock file', 'keep the lock file'],
  ['asked before running it', 'just run it yourself'],
] as const;
const failures = [
  'Missing script: "lint"',
  'command not found',
  'connection refused on port 5432',
  'permission denied',
  'no such file or directory',
  'unknown flag --fast',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** What a session is about: mostly the same few things, sometimes this week's new thing. */
function targetOf(random: () => number, day: number): string {
  if (random() < 0.7) return pick(random, coreTargets);
  const week = Math.floor(day / 7);
  const n = Math.floor(random() * 12);
  return `the ${adjectives[(week + n) % adjectives.length]} ${nouns[(week * 3 + n) % nouns.length]} ${week}-${n}`;
}

interface PlannedSession {
  id: string;
  project: string;
  targets: string[];
}

/** One day's sessions: the events of their surprises (as JSONL) and which transcripts to write. */
function planDay(
  day: number,
  options: Required<Pick<GrowthOptions, 'sessionsPerDay' | 'transcriptsPerDay'>>,
  seed: number,
) {
  const random = seeded(seed * 100_003 + day);
  const events: string[] = [];
  const sessions: PlannedSession[] = [];
  for (let s = 0; s < options.sessionsPerDay; s++) {
    const id = `d${day}-s${s}`;
    const project = `/home/dev/project-${s % 6}`;
    const at = (minute: number) =>
      new Date(FIRST_DAY + day * DAY + (8 * 60 + s * 14 + minute) * 60_000).toISOString();
    const targets: string[] = [];
    const surprises = [0, 0, 1, 1, 1, 2, 2, 3][Math.floor(random() * 8)]!;
    for (let k = 0; k < surprises; k++) {
      const target = targetOf(random, day);
      targets.push(target);
      const base = { agent: 'claude-code', session: id, cwd: project, at: at(k) };
      const roll = random();
      if (roll < 0.3) {
        const [wrong, right] = pick(random, wrongs);
        events.push(
          JSON.stringify({
            kind: 'correction',
            said: `no, for ${target} ${right}, you ${wrong} again`,
            agent_did: `I ${wrong} for ${target}.`,
            ...base,
          }),
        );
      } else if (roll < 0.8) {
        const tool = pick(random, tools);
        events.push(
          JSON.stringify({
            kind: 'error',
            title: `Bash: ${tool} ${pick(random, verbs)} ${target}`,
            happened: `${tool}: ${pick(random, failures)}`,
            ...base,
          }),
        );
      } else {
        events.push(
          JSON.stringify({
            kind: 'surprise',
            expected: `${target} to answer 200`,
            happened: `${target} answered ${pick(random, ['301 to /login', '502', 'an empty body', 'a stale cache'])}`,
            ...base,
          }),
        );
      }
    }
    if (targets.length === 0) targets.push(targetOf(random, day));
    sessions.push({ id, project, targets });
  }
  return { events, sessions, transcripts: sessions.slice(0, options.transcriptsPerDay) };
}

function sizeOf(path: string): number {
  let total = 0;
  try {
    if (statSync(path).isFile()) return statSync(path).size;
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
    }
  } catch {
    return 0;
  }
  return total;
}

/** The rendered memory folders under the agent's configuration: all their bytes, and the largest MEMORY.md. */
function memoryFolders(claude: string): { bytes: number; index: number } {
  let bytes = 0;
  let index = 0;
  const projects = join(claude, 'projects');
  let names: string[] = [];
  try {
    names = readdirSync(projects);
  } catch {
    return { bytes, index };
  }
  for (const name of names) {
    const folder = join(projects, name, 'memory');
    bytes += sizeOf(folder);
    try {
      index = Math.max(index, statSync(join(folder, 'MEMORY.md')).size);
    } catch {
      // no memory rendered for this project yet
    }
  }
  return { bytes, index };
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** The tokens the prompt hook adds over each sampled session's prompts, as `remem prime` works them out. */
async function primeSessions(
  home: string,
  now: string,
  sessions: readonly PlannedSession[],
): Promise<number[]> {
  const config = resolveConfig({
    REMEM_HOME: home,
    HOME: join(home, 'user'),
    REMEM_HOLDOUT: 'off',
    REMEM_NOW: now,
  });
  let store: Store | null = null;
  const db = () => {
    store ??= openStore(home, { readonly: true });
    return store.db;
  };
  const totals: number[] = [];
  try {
    for (const session of sessions) {
      let tokens = 0;
      const id = `primed-${now}-${session.id}`;
      const prompts = session.targets.flatMap((target) => [
        `let's work on ${target} today`,
        `run the tests for ${target}`,
        `deploy ${target} to staging`,
      ]);
      for (const prompt of prompts) {
        const payload = parsePayload(
          JSON.stringify({
            hook_event_name: 'UserPromptSubmit',
            session_id: id,
            cwd: session.project,
            prompt,
          }),
        );
        if ('refused' in payload) throw new Error(payload.refused);
        const answer = await answerHook(payload, { config, now, db });
        const context = answer.output?.['hookSpecificOutput'] as { additionalContext?: string } | undefined;
        tokens += tokensOf(context?.additionalContext ?? '');
        if (answer.log)
          appendSessionLog(home, { ...answer.log, ms: 0, outcome: answer.output ? 'answered' : 'silent' });
      }
      totals.push(tokens);
    }
  } finally {
    (store as Store | null)?.close();
    rmSync(join(home, 'prime'), { recursive: true, force: true });
  }
  return totals;
}

function remem(
  binary: string,
  args: string[],
  home: string,
  now: string,
): { ms: number; failure: string | null } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [binary, ...args], {
    env: { PATH: process.env['PATH'] ?? '', HOME: join(home, 'user'), REMEM_HOME: home, REMEM_NOW: now },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  return {
    ms,
    failure:
      result.status === 0
        ? null
        : `remem ${args[0]} at ${now}: exit ${result.status}: ${result.stderr.trim().slice(0, 300)}`,
  };
}

function count(store: Store, sql: string): number {
  return (store.db.prepare(sql).get() as { n: number }).n;
}

/** Replays `days` nights in a new home under `root` (a temporary folder unless given). */
export async function replayGrowth(options: GrowthOptions, root?: string): Promise<GrowthResult> {
  const seed = options.seed ?? 17;
  const plan = {
    sessionsPerDay: options.sessionsPerDay,
    transcriptsPerDay: Math.min(options.transcriptsPerDay ?? 2, options.sessionsPerDay),
  };
  const base = root ?? mkdtempSync(join(tmpdir(), 'remem-growth-'));
  const home = join(base, 'home');
  const claude = join(home, 'user', '.claude');
  const inbox = join(base, 'events');
  mkdirSync(inbox, { recursive: true });
  const failures: string[] = [];
  const months: GrowthMonth[] = [];
  let nights: GrowthNight[] = [];
  const written = new Set<string>();
  let eventsStored = 0;
  try {
    // Wired as a person wires it: render writes an agent's memory folder only once setup has wired that agent.
    mkdirSync(claude, { recursive: true });
    const wired = remem(
      options.binary ?? built,
      ['setup', '--agent', 'claude-code'],
      home,
      new Date(FIRST_DAY).toISOString(),
    );
    if (wired.failure) failures.push(wired.failure);
    for (let day = 0; failures.length === 0 && day < options.days; day++) {
      const { events, transcripts } = planDay(day, plan, seed);
      for (const line of events) {
        const parsed = parseEventLine(line, 1);
        if ('event' in parsed) written.add(eventKey(parsed.event));
      }
      const random = seeded(seed + day);
      for (const [index, session] of transcripts.entries()) {
        const folder = join(claude, 'projects', session.project.replace(/\//g, '-'));
        mkdirSync(folder, { recursive: true });
        const id = `${day.toString(16).padStart(8, '0')}-${index.toString(16).padStart(4, '0')}-4000-a000-${seed.toString(16).padStart(12, '0')}`;
        writeFileSync(
          join(folder, `${id}.jsonl`),
          generateSession(
            random,
            id,
            session.project,
            FIRST_DAY + day * DAY + 9 * 3_600_000,
            3 + Math.floor(random() * 3),
          ),
        );
      }
      const file = join(inbox, `day-${day}.jsonl`);
      writeFileSync(file, events.length ? `${events.join('\n')}\n` : '');
      const now = new Date(FIRST_DAY + (day + 1) * DAY + 4 * 3_600_000).toISOString();
      const binary = options.binary ?? built;
      const ingest = remem(binary, ['ingest', '--claude', claude, '--events', file], home, now);
      const slept = remem(binary, ['sleep'], home, now);
      const rendered = remem(binary, ['render'], home, now);
      for (const step of [ingest, slept, rendered]) if (step.failure) failures.push(step.failure);
      // A night that failed leaves nothing worth replaying the rest of the year on.
      if (failures.length) break;
      rmSync(file);
      const night = { day, ingestMs: ingest.ms, sleepMs: slept.ms, renderMs: rendered.ms };
      nights.push(night);
      options.onNight?.(night);
      const month = new Date(FIRST_DAY + day * DAY).toISOString().slice(0, 7);
      const nextMonth = new Date(FIRST_DAY + (day + 1) * DAY).toISOString().slice(0, 7);
      if (nextMonth === month && day < options.days - 1) continue;
      const sampled = planDay(day + 1, plan, seed).sessions.slice(0, options.primedSessions ?? 10);
      const primed = await primeSessions(
        home,
        new Date(FIRST_DAY + (day + 1) * DAY + 10 * 3_600_000).toISOString(),
        sampled,
      );
      const store = openStore(home, { readonly: true });
      try {
        const folders = memoryFolders(claude);
        eventsStored = count(store, "SELECT COUNT(*) AS n FROM episodes WHERE origin = 'event'");
        months.push({
          month,
          nights: nights.length,
          episodes: count(store, 'SELECT COUNT(*) AS n FROM episodes'),
          lessons: count(store, 'SELECT COUNT(*) AS n FROM lessons'),
          shown: count(
            store,
            'SELECT COUNT(*) AS n FROM lessons WHERE archived = 0 AND merged_into IS NULL AND vetoed_at IS NULL',
          ),
          storeMB: (sizeOf(join(home, 'remem.db')) + sizeOf(join(home, 'remem.db-wal'))) / 1024 / 1024,
          homeMB: sizeOf(home) / 1024 / 1024 - sizeOf(join(home, 'user')) / 1024 / 1024,
          folderKB: folders.bytes / 1024,
          indexTokens: tokensOf('x'.repeat(folders.index)),
          primeTokens: primed.length ? primed.reduce((a, b) => a + b, 0) / primed.length : 0,
          primeTokensMax: Math.max(0, ...primed),
          ingestMs: median(nights.map((n) => n.ingestMs)),
          sleepMs: median(nights.map((n) => n.sleepMs)),
        });
      } finally {
        store.close();
      }
      nights = [];
    }
  } finally {
    if (root === undefined) rmSync(base, { recursive: true, force: true });
  }
  return {
    months,
    failures,
    nights: options.days,
    sessions: options.days * options.sessionsPerDay,
    eventsWritten: written.size,
    eventsStored,
  };
}

/** The months as a Markdown table. */
export function growthTable(months: readonly GrowthMonth[]): string {
  const rows = [
    '| month | nights | episodes | lessons (shown) | store MB | home MB | memory folder KB | MEMORY.md tokens | primed tokens per session (mean / most) | ingest ms | sleep ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...months.map(
      (m) =>
        `| ${m.month} | ${m.nights} | ${m.episodes} | ${m.lessons} (${m.shown}) | ${m.storeMB.toFixed(1)} | ${m.homeMB.toFixed(1)} | ${m.folderKB.toFixed(0)} | ${m.indexTokens} | ${m.primeTokens.toFixed(0)} / ${m.primeTokensMax} | ${m.ingestMs.toFixed(0)} | ${m.sleepMs.toFixed(0)} |`,
    ),
  ];
  return rows.join('\n');
}

export async function run(args: string[]): Promise<void> {
  const days = Number(args[0] ?? 365);
  const sessionsPerDay = Number(args[1] ?? 50);
  console.log(`${days} nights, ${sessionsPerDay} sessions a day`);
  const result = await replayGrowth({
    days,
    sessionsPerDay,
    onNight: (night) => {
      if (night.day % 30 === 29)
        console.error(`night ${night.day + 1}: sleep ${night.sleepMs.toFixed(0)} ms`);
    },
  });
  console.log(growthTable(result.months));
  console.log(`\nevents sent ${result.eventsWritten}, event episodes stored ${result.eventsStored}`);
  if (result.failures.length) {
    console.log(`\n${result.failures.length} commands failed:\n${result.failures.slice(0, 10).join('\n')}`);
    process.exitCode = 1;
  }
}
