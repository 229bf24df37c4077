/**
 * Many processes on one store at once: hooks on every prompt, an ingest, a sleep and the MCP server, and two
 * nightly jobs started together. Nothing may fail, nothing may wait past a hook's deadline, nothing is lost.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { seeded } from '../../bench/_generate.ts';
import { type Corpus, generateEvents } from './corpus.ts';
import {
  checkIntegrity,
  copyHome,
  envFor,
  type Finished,
  lostRows,
  query,
  readState,
  rememBinary,
  runRemem,
  type StoreState,
  sleepMs,
  startRemem,
  stateDifference,
} from './harness.ts';

const FIRST = '2026-02-01T04:00:00.000Z';
const LATER = '2026-02-08T04:00:00.000Z';
export const HOOK_DEADLINE_MS = 1500;

/** What a person types that meets the lessons the corpus teaches (the generated corrections and errors). */
const prompts = [
  'run the migration for the nightly export',
  'use the staging config for the checkout service',
  'npm test the billing worker please',
  'deploy the auth gateway with terraform',
  'why does the search index answer 502',
  'keep the lock file for the web client',
];

/** A home that has read the corpus and slept once: it has lessons to prime with. */
export async function prepareStore(corpus: Corpus, home: string): Promise<void> {
  for (const args of [['ingest', '--claude', corpus.claude, '--events', corpus.events], ['sleep']]) {
    const result = await runRemem(args, { home, now: FIRST });
    if (result.code !== 0) throw new Error(`remem ${args.join(' ')}: ${result.stderr}`);
  }
}

export interface PrimeOutcome {
  session: string;
  code: number | null;
  /** The whole process, start-up included. */
  ms: number;
  /** What the hook measured from its start to its answer, as it logged it. */
  loggedMs: number | null;
  /** The lessons' text was put before the agent. */
  answered: boolean;
  /** What it printed is a hook answer (or nothing). */
  wellFormed: boolean;
  stderr: string;
}

export interface ConcurrencyTrial {
  primes: PrimeOutcome[];
  /** Non-zero exits or failures, by process. */
  failures: string[];
  /** Hooks that printed nothing and logged nothing: stopped by their deadline. */
  failedOpen: number;
  /** Hooks that logged their choice in time and chose nothing: no lesson met the prompt. */
  silent: number;
  /** Any mention of a busy or locked database, anywhere a user would see it. */
  busy: string[];
  /** Primes that chose lessons and have no row in the hooks' log, or no audit row after the nightly job. */
  unlogged: string[];
  integrity: string;
  /** Episodes and lessons the store had before and lost. */
  lost: string[];
  /** Events the MCP client remembered that the next ingest did not store. */
  eventsMissing: number;
  mcpCalls: number;
}

function primePayload(session: string, prompt: string): string {
  return JSON.stringify({
    hook_event_name: 'UserPromptSubmit',
    session_id: session,
    cwd: '/home/dev/project-1',
    transcript_path: '/nonexistent.jsonl',
    prompt,
  });
}

function isHookAnswer(stdout: string): boolean {
  if (stdout === '') return true;
  try {
    const value = JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: unknown } };
    return typeof value.hookSpecificOutput?.additionalContext === 'string';
  } catch {
    return false;
  }
}

const BUSY = /SQLITE_BUSY|database is locked|SQLITE_LOCKED/i;

async function driveMcp(home: string, until: Promise<unknown>, now: string, remembered: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [rememBinary(), 'mcp'],
    env: envFor({ home, now }) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'remem-faults', version: '1.0.0' });
  await client.connect(transport);
  const failures: string[] = [];
  let calls = 0;
  let stop = false;
  void until.then(() => {
    stop = true;
  });
  try {
    for (let n = 0; !stop || calls < 6; n++) {
      const call =
        n % 3 === 0
          ? { name: 'lessons', arguments: {} }
          : n % 3 === 1
            ? { name: 'recall', arguments: { query: prompts[n % prompts.length]!, k: 3 } }
            : {
                name: 'remember',
                arguments: {
                  kind: 'error',
                  title: `Bash: make check-${n}`,
                  happened: `make: *** No rule to make target 'check-${n}'`,
                  session: 'mcp-session',
                },
              };
      const result = (await client.callTool(call)) as { isError?: boolean; content: { text?: string }[] };
      calls++;
      const text = result.content.map((block) => block.text ?? '').join('\n');
      if (result.isError) failures.push(`mcp ${call.name}: ${text.slice(0, 200)}`);
      else if (call.name === 'remember') remembered.push(String(call.arguments['title']));
      if (BUSY.test(text)) failures.push(`mcp ${call.name} answered: ${text.slice(0, 200)}`);
    }
  } catch (error) {
    failures.push(`mcp: ${(error as Error).message}`);
  } finally {
    await client.close();
  }
  return { failures, calls, stderr };
}

/**
 * One trial: an ingest of new events and a sleep a week later start on a store with lessons, the MCP server
 * is called in a loop, and `primes` hooks start at once (in `waves`, spread over the ingest and the sleep).
 * Then the nightly job drains the hooks' log and every check is made.
 */
export async function concurrencyTrial(
  template: string,
  home: string,
  options: { primes: number; waves: number; seed: number; withoutIndex?: boolean },
): Promise<ConcurrencyTrial> {
  copyHome(template, home);
  // Without the compiled index, the hooks read the store itself while the writers work.
  if (options.withoutIndex) rmSync(join(home, 'prime-index.bin'), { force: true });
  const before = readState(home);
  const random = seeded(options.seed);
  const events = join(home, 'new-events.jsonl');
  writeFileSync(events, generateEvents(400, options.seed, 5, 32));
  const failures: string[] = [];
  const busy: string[] = [];
  const check = (name: string, result: Finished) => {
    if (result.code !== 0)
      failures.push(`${name}: exit ${result.code}: ${result.stderr.trim().slice(0, 300)}`);
    if (BUSY.test(result.stderr + result.stdout)) busy.push(`${name}: ${result.stderr.trim().slice(0, 300)}`);
  };
  const ingest = startRemem(['ingest', '--events', events], { home, now: LATER });
  const sleep = startRemem(['sleep'], { home, now: LATER });
  const writers = Promise.all([ingest.done, sleep.done]);
  const remembered: string[] = [];
  const mcp = driveMcp(home, writers, LATER, remembered);
  const primes: Promise<PrimeOutcome>[] = [];
  for (let wave = 0; wave < options.waves; wave++) {
    await sleepMs(50 + random() * 400);
    const count = Math.round(options.primes / options.waves);
    for (let n = 0; n < count; n++) {
      const session = `concurrent-${options.seed}-${wave}-${n}`;
      const started = startRemem(['prime'], {
        home,
        now: LATER,
        input: primePayload(session, prompts[(wave + n) % prompts.length]!),
        env: {
          REMEM_HOLDOUT: 'off',
          REMEM_HOOK_DEADLINE_MS: String(HOOK_DEADLINE_MS),
          REMEM_DEBUG: '1',
        },
      });
      primes.push(
        started.done.then((result) => ({
          session,
          code: result.code,
          ms: result.ms,
          loggedMs: null,
          answered: result.stdout.includes('additionalContext'),
          wellFormed: isHookAnswer(result.stdout),
          stderr: result.stderr,
        })),
      );
    }
  }
  const [ingested, slept] = await writers;
  check('ingest', ingested);
  check('sleep', slept);
  const outcomes = await Promise.all(primes);
  for (const prime of outcomes) {
    if (prime.code !== 0)
      failures.push(`prime ${prime.session}: exit ${prime.code}: ${prime.stderr.slice(0, 200)}`);
    if (!prime.wellFormed)
      failures.push(`prime ${prime.session}: printed something that is not a hook answer`);
    // With REMEM_DEBUG the hook says on stderr what made it fail open.
    if (prime.stderr) failures.push(`prime ${prime.session} failed open: ${prime.stderr.slice(0, 300)}`);
    if (BUSY.test(prime.stderr)) busy.push(`prime ${prime.session}: ${prime.stderr.slice(0, 200)}`);
  }
  const served = await mcp;
  failures.push(...served.failures);
  if (served.stderr.trim()) failures.push(`mcp said: ${served.stderr.trim().slice(0, 300)}`);
  if (BUSY.test(served.stderr)) busy.push(`mcp: ${served.stderr.slice(0, 300)}`);

  // Every prime that chose lessons left a row in the hooks' log, and the nightly job audits each one.
  const logged = readPrimeLog(home);
  const unlogged: string[] = [];
  let failedOpen = 0;
  let silent = 0;
  for (const prime of outcomes) {
    const row = logged.find((entry) => entry.session === prime.session);
    prime.loggedMs = row?.ms ?? null;
    if (prime.answered && !(row && row.lessonHashes.length > 0))
      unlogged.push(`${prime.session}: no row in the hooks' log`);
    // Answered past the deadline: the hook held the agent.
    if (prime.answered && (row?.ms ?? 0) > HOOK_DEADLINE_MS)
      failures.push(`prime ${prime.session}: answered after ${row?.ms} ms`);
    if (!prime.answered && row === undefined) failedOpen++;
    if (!prime.answered && row !== undefined && row.lessonHashes.length === 0) silent++;
  }
  const nightly = await runRemem(['run'], { home, now: LATER });
  check('run', nightly);
  const audited = readInjections(home);
  for (const prime of outcomes) {
    if (prime.answered && !audited.has(prime.session)) unlogged.push(`${prime.session}: no injection row`);
  }
  const integrity = checkIntegrity(home);
  const after = readState(home);
  const titles = new Set(
    [...after.episodes.values()].map(
      (row) => (JSON.parse(row) as [string, unknown][]).find(([c]) => c === 'title')?.[1],
    ),
  );
  return {
    primes: outcomes,
    failedOpen,
    silent,
    failures,
    busy,
    unlogged,
    integrity,
    lost: lostRows(before, after),
    eventsMissing: remembered.filter((title) => !titles.has(title)).length,
    mcpCalls: served.calls,
  };
}

interface LoggedRow {
  session: string;
  lessonHashes: string[];
  ms: number;
}

function readPrimeLog(home: string): LoggedRow[] {
  const dir = join(home, 'prime');
  const rows: LoggedRow[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return rows;
  }
  for (const name of names) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (line) rows.push(JSON.parse(line) as LoggedRow);
    }
  }
  return rows;
}

function readInjections(home: string): Set<string> {
  const rows = query(
    home,
    "SELECT session FROM injections WHERE moment = 'prompt' AND lesson_hashes != '[]'",
  );
  return new Set(rows.map((row) => String(row['session'])));
}

export interface TwoRunsTrial {
  codes: (number | null)[];
  /** The one that stopped said why, in one line. */
  said: string;
  /** Exactly one ran. */
  oneRan: boolean;
  integrity: string;
  difference: string | null;
}

/** Two `remem run` started together on the same home; `staleLock`: a lock left by a run that died. */
export async function twoRunsTrial(
  template: string,
  home: string,
  reference: StoreState,
  staleLock: boolean,
): Promise<TwoRunsTrial> {
  copyHome(template, home);
  if (staleLock) writeFileSync(join(home, 'run.lock'), `${await deadPid()}\n`);
  const [a, b] = await Promise.all([
    runRemem(['run'], { home, now: FIRST }),
    runRemem(['run'], { home, now: FIRST }),
  ]);
  const stopped = [a, b].filter((result) => result.code !== 0);
  const said = stopped.map((result) => result.stderr.trim()).join(' | ');
  const oneRan =
    [a, b].filter((result) => result.code === 0).length === 1 &&
    stopped.length === 1 &&
    stopped[0]!.code === 1 &&
    /another remem run is running/.test(said) &&
    said.split('\n').length === 1;
  return {
    codes: [a.code, b.code],
    said,
    oneRan,
    integrity: checkIntegrity(home),
    difference: stateDifference(readState(home), reference),
  };
}

/** The id of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = startRemem(['--help'], { home: '/nonexistent' });
  await child.done;
  return child.child.pid ?? 999_999;
}

export interface WritersTrial {
  codes: (number | null)[];
  /** What the writers said on stderr. */
  said: string;
  integrity: string;
  /** Episodes one ingest alone stores and these did not, and episodes they stored that it does not. */
  missing: number;
  extra: number;
}

/**
 * Two `remem ingest` of the same new material and a `remem sleep`, started together: as when two agent
 * sessions end at once and each hook starts an ingest while the nightly job runs. Each must wait its turn.
 */
export async function writersTrial(
  corpus: Corpus,
  home: string,
  reference: StoreState,
): Promise<WritersTrial> {
  const args = ['ingest', '--claude', corpus.claude, '--events', corpus.events];
  const results = await Promise.all([
    runRemem(args, { home, now: FIRST }),
    runRemem(args, { home, now: FIRST }),
    runRemem(['sleep'], { home, now: FIRST }),
  ]);
  const after = readState(home);
  return {
    codes: results.map((result) => result.code),
    said: results
      .map((result) => result.stderr.trim())
      .filter(Boolean)
      .join(' | '),
    integrity: checkIntegrity(home),
    missing: [...reference.episodes.keys()].filter((key) => !after.episodes.has(key)).length,
    extra: [...after.episodes.keys()].filter((key) => !reference.episodes.has(key)).length,
  };
}
