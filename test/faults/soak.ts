/**
 * `npm run soak`: the fault cases of test/faults at length, and the replayed year, then docs/RELIABILITY.md
 * rewritten with what was measured. Each count can be scaled down:
 *
 *   npm run soak -- --crash 100 --disk 20 --concurrency 10 --two-runs 50 --fuzz 2000 --growth-days 365
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seeded } from '../../bench/_generate.ts';
import { growthTable, replayGrowth } from '../../bench/growth.ts';
import { repoRoot } from '../helpers/remem.ts';
import { mustNotSection } from '../must-not/catalogue.ts';
import {
  concurrencyTrial,
  HOOK_DEADLINE_MS,
  prepareStore,
  twoRunsTrial,
  writersTrial,
} from './concurrency.ts';
import { writeCorpus } from './corpus.ts';
import { crashCommands, crashTrial, prepareCrash, spreadDelays } from './crash.ts';
import { chooseDiskWay, type DiskCommand, diskFullTrial, prepareDiskFull } from './disk-full.ts';
import { fuzzHttp } from './fuzz-http.ts';
import { fuzzIngest } from './fuzz-ingest.ts';
import type { FuzzOutcome } from './fuzz-kit.ts';
import { fuzzUnits } from './fuzz-units.ts';
import { copyHome, readState, runRemem, useRememBinary } from './harness.ts';
import { commonsGuards, httpGuards, injectionChecks, secretChecks } from './security.ts';

const { values: args } = parseArgs({
  options: {
    crash: { type: 'string', default: '100' },
    disk: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '10' },
    'two-runs': { type: 'string', default: '50' },
    fuzz: { type: 'string', default: '2000' },
    'growth-days': { type: 'string', default: '365' },
    sessions: { type: 'string', default: '50' },
    out: { type: 'string', default: join(repoRoot, 'docs', 'RELIABILITY.md') },
  },
});
const scale = {
  crash: Number(args.crash),
  disk: Number(args.disk),
  concurrency: Number(args.concurrency),
  twoRuns: Number(args['two-runs']),
  fuzz: Number(args.fuzz),
  growthDays: Number(args['growth-days']),
  sessions: Number(args.sessions),
};

interface Row {
  case: string;
  trials: number;
  faults: string;
  failures: number;
  lost: number;
}

const rows: Row[] = [];
const failures: string[] = [];
const started = Date.now();
const log = (text: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${text}`);

function record(row: Row, problems: readonly string[]): void {
  rows.push(row);
  failures.push(...problems.map((problem) => `${row.case}: ${problem}`));
  log(`${row.case}: ${row.trials} trials, ${row.faults}, ${row.failures} failures, ${row.lost} lost`);
}

/** A copy of the build and the launcher: another build of the working tree meanwhile cannot change what runs. */
function snapshotBuild(root: string): string {
  const copy = join(root, 'build');
  mkdirSync(copy, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json'])
    cpSync(join(repoRoot, part), join(copy, part), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
  return join(copy, 'bin', 'remem.js');
}

async function crashes(root: string): Promise<void> {
  const corpus = writeCorpus(join(root, 'crash-corpus'), { files: 24, events: 1500 });
  for (const command of crashCommands) {
    const setup = await prepareCrash(command, corpus, join(root, `crash-${command}`));
    let killed = 0;
    let lost = 0;
    const problems: string[] = [];
    const random = seeded(41 + command.length);
    for (const [n, delay] of spreadDelays(setup.ms, scale.crash, random).entries()) {
      const home = join(root, `crash-${command}`, 'trial');
      const trial = await crashTrial(setup, delay, home);
      rmSync(home, { recursive: true, force: true });
      if (trial.killed) killed++;
      lost += trial.lost.length;
      const at = `trial ${n}, killed after ${trial.delayMs} ms`;
      if (trial.integrity !== 'ok') problems.push(`${at}: integrity ${trial.integrity}`);
      if (trial.lost.length) problems.push(`${at}: lost ${trial.lost.slice(0, 3).join(', ')}`);
      if (trial.rerunFailure) problems.push(`${at}: rerun ${trial.rerunFailure}`);
      if (trial.difference) problems.push(`${at}: after the rerun ${trial.difference}`);
    }
    record(
      {
        case: `SIGKILL during \`remem ${command}\` (${(corpus.bytes / 1024 / 1024).toFixed(1)} MB, runs ${(setup.ms / 1000).toFixed(1)} s)`,
        trials: scale.crash,
        faults: `${killed} kills mid-run`,
        failures: problems.length,
        lost,
      },
      problems,
    );
  }
}

async function fullDisks(root: string): Promise<void> {
  const corpus = writeCorpus(join(root, 'disk-corpus'), { files: 16, events: 1000 });
  const way = chooseDiskWay(join(root, 'probe'));
  const setup = await prepareDiskFull(corpus, join(root, 'disk'), way);
  const random = seeded(43);
  for (const command of ['ingest', 'sleep'] as DiskCommand[]) {
    let ran = 0;
    let lost = 0;
    const problems: string[] = [];
    const ways = new Set<string>();
    for (let n = 0; n < scale.disk; n++) {
      // Both ways where a tmpfs can be mounted: a full file system, and a limit on a file's size.
      const trialWay = way === 'tmpfs' && n % 2 === 1 ? 'file-size-limit' : way;
      ways.add(trialWay);
      const slack = Math.floor(random() * random() * 4 * 1024 * 1024);
      const trial = await diskFullTrial(
        { ...setup, way: trialWay },
        command,
        slack,
        join(root, 'disk', `trial-${n}`),
      );
      if (trial.failed) ran++;
      lost += trial.lost.length;
      const at = `trial ${n} (${trial.way}, ${slack} bytes left)`;
      if (trial.failed && !trial.clear)
        problems.push(`${at}: said ${JSON.stringify(trial.said.slice(0, 300))}`);
      if (trial.quiet) problems.push(`${at}: exit 0 while the disk refused writes`);
      if (trial.integrity !== 'ok') problems.push(`${at}: integrity ${trial.integrity}`);
      if (trial.lost.length) problems.push(`${at}: lost ${trial.lost.slice(0, 3).join(', ')}`);
      if (trial.partial) problems.push(`${at}: half a night ${trial.partial}`);
      if (trial.difference) problems.push(`${at}: after the rerun ${trial.difference}`);
    }
    record(
      {
        case: `Full disk under \`remem ${command}\` (${[...ways].join(', ')})`,
        trials: scale.disk,
        faults: `${ran} ran out of space`,
        failures: problems.length,
        lost,
      },
      problems,
    );
  }
}

async function concurrency(root: string): Promise<void> {
  const corpus = writeCorpus(join(root, 'concurrency-corpus'), { files: 12, events: 1000 });
  const template = join(root, 'concurrency-template');
  await prepareStore(corpus, template);
  let primes = 0;
  let answered = 0;
  let failedOpen = 0;
  let slowest = 0;
  let lost = 0;
  const problems: string[] = [];
  for (let n = 0; n < scale.concurrency; n++) {
    const home = join(root, 'concurrency-trial');
    const trial = await concurrencyTrial(template, home, {
      primes: 16,
      waves: n % 3 === 2 ? 2 : 1,
      seed: n + 1,
      withoutIndex: n % 2 === 1,
    });
    rmSync(home, { recursive: true, force: true });
    primes += trial.primes.length;
    answered += trial.primes.filter((prime) => prime.answered).length;
    failedOpen += trial.failedOpen;
    slowest = Math.max(slowest, ...trial.primes.map((prime) => prime.loggedMs ?? 0));
    lost += trial.lost.length + trial.eventsMissing + trial.unlogged.length;
    problems.push(
      ...[...trial.failures, ...trial.busy, ...trial.unlogged].map((problem) => `trial ${n}: ${problem}`),
    );
    if (trial.integrity !== 'ok') problems.push(`trial ${n}: integrity ${trial.integrity}`);
  }
  record(
    {
      case: `16 \`remem prime\` at once beside ingest, sleep and \`remem mcp\` (slowest hook ${slowest} ms of ${HOOK_DEADLINE_MS}; ${answered} answered, ${failedOpen} failed open)`,
      trials: scale.concurrency,
      faults: `${primes} hooks, ${scale.concurrency * 3} writers`,
      failures: problems.length,
      lost,
    },
    problems,
  );
}

async function writers(root: string): Promise<void> {
  const corpus = writeCorpus(join(root, 'writers-corpus'), { files: 8, events: 600 });
  const once = join(root, 'writers-once');
  await runRemem(['ingest', '--claude', corpus.claude, '--events', corpus.events], {
    home: once,
    now: '2026-02-01T04:00:00.000Z',
  });
  const reference = readState(once);
  let lost = 0;
  const problems: string[] = [];
  for (let n = 0; n < scale.concurrency; n++) {
    const home = join(root, 'writers-trial');
    const trial = await writersTrial(corpus, home, reference);
    rmSync(home, { recursive: true, force: true });
    lost += trial.missing;
    if (trial.codes.some((code) => code !== 0))
      problems.push(`trial ${n}: exits ${trial.codes.join(', ')}: ${trial.said.slice(0, 300)}`);
    if (trial.integrity !== 'ok') problems.push(`trial ${n}: integrity ${trial.integrity}`);
    if (trial.missing || trial.extra)
      problems.push(`trial ${n}: ${trial.missing} episodes missing, ${trial.extra} extra`);
  }
  record(
    {
      case: 'Two `remem ingest` and a `remem sleep` started together on new material',
      trials: scale.concurrency,
      faults: `${scale.concurrency * 3} writers at once`,
      failures: problems.length,
      lost,
    },
    problems,
  );
}

async function twoRuns(root: string): Promise<void> {
  const corpus = writeCorpus(join(root, 'two-corpus'), { files: 8, events: 600 });
  const template = join(root, 'two-template');
  copyHome(corpus.claude, join(template, 'user', '.claude'));
  copyFileSync(corpus.events, join(template, 'inbox.jsonl'));
  const once = join(root, 'two-once');
  copyHome(template, once);
  await runRemem(['run'], { home: once, now: '2026-02-01T04:00:00.000Z' });
  const reference = readState(once);
  let lost = 0;
  const problems: string[] = [];
  for (let n = 0; n < scale.twoRuns; n++) {
    const home = join(root, 'two-trial');
    const trial = await twoRunsTrial(template, home, reference, n % 2 === 1);
    rmSync(home, { recursive: true, force: true });
    if (!trial.oneRan)
      problems.push(`trial ${n}: exits ${trial.codes.join(', ')}: ${trial.said.slice(0, 200)}`);
    if (trial.integrity !== 'ok') problems.push(`trial ${n}: integrity ${trial.integrity}`);
    if (trial.difference) {
      problems.push(`trial ${n}: ${trial.difference}`);
      lost += Number(/(\d+) missing/.exec(trial.difference)?.[1] ?? 0);
    }
  }
  record(
    {
      case: 'Two `remem run` started together (half with a lock left by a killed run)',
      trials: scale.twoRuns,
      faults: `${scale.twoRuns} races for the lock`,
      failures: problems.length,
      lost,
    },
    problems,
  );
}

function fuzzRows(outcomes: readonly FuzzOutcome[]): void {
  for (const outcome of outcomes) {
    record(
      {
        case: `Fuzzed: ${outcome.name}`,
        trials: outcome.runs,
        faults: `${outcome.runs} bad inputs`,
        failures: outcome.failures.length,
        lost: outcome.lost,
      },
      outcome.failures,
    );
  }
}

async function security(root: string): Promise<void> {
  const groups = [
    ['REST API and web view: token, Origin, Host, body size', await httpGuards(join(root, 'guards'))],
    ['Commons: token, Origin, Host, body size', await commonsGuards()],
    [
      'Order inside a transcript (lessons, prompt block, prime)',
      await injectionChecks(join(root, 'injection')),
    ],
    ['Secrets in sessions (lessons, shared file)', await secretChecks(join(root, 'secrets'))],
  ] as const;
  for (const [name, checks] of groups) {
    const problems = checks.filter((check) => !check.ok).map((check) => `${check.name}: ${check.detail}`);
    record(
      {
        case: name,
        trials: checks.length,
        faults: `${checks.length} hostile requests or inputs`,
        failures: problems.length,
        lost: 0,
      },
      problems,
    );
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'remem-soak-'));
  const growthNote: string[] = [];
  try {
    useRememBinary(snapshotBuild(root));
    log(`soak in ${root}: ${JSON.stringify(scale)}`);
    if (scale.crash > 0) await crashes(root);
    if (scale.disk > 0) await fullDisks(root);
    if (scale.concurrency > 0) {
      await concurrency(root);
      await writers(root);
    }
    if (scale.twoRuns > 0) await twoRuns(root);
    if (scale.fuzz > 0) {
      fuzzRows(await fuzzUnits({ numRuns: scale.fuzz }));
      fuzzRows(await fuzzHttp({ numRuns: Math.ceil(scale.fuzz / 4) }));
      fuzzRows(
        await fuzzIngest({ numRuns: Math.ceil(scale.fuzz / 20), primeRuns: Math.ceil(scale.fuzz / 50) }),
      );
    }
    await security(root);
    if (scale.growthDays > 0) {
      const growth = await replayGrowth(
        {
          days: scale.growthDays,
          sessionsPerDay: scale.sessions,
          binary: join(root, 'build', 'bin', 'remem.js'),
          onNight: (night) => {
            if (night.day % 30 === 29)
              log(`growth: night ${night.day + 1}, sleep ${night.sleepMs.toFixed(0)} ms`);
          },
        },
        join(root, 'growth'),
      );
      record(
        {
          case: `Growth: ${scale.growthDays} replayed nights of ${scale.sessions} sessions a day`,
          trials: growth.nights,
          faults: '—',
          failures: growth.failures.length,
          lost: Math.max(0, growth.eventsWritten - growth.eventsStored),
        },
        growth.failures,
      );
      growthNote.push(
        `${growth.sessions.toLocaleString('en')} sessions; ${growth.eventsWritten.toLocaleString('en')} distinct events sent, ${growth.eventsStored.toLocaleString('en')} stored.`,
        '',
        growthTable(growth.months),
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  writeFileSync(args.out, report(growthNote));
  log(`wrote ${args.out}`);
  if (failures.length) process.exitCode = 1;
}

/** A section of the file being rewritten that another command writes (the secrets bench's figures), kept as it is. */
function keptSection(file: string, heading: string): string[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return [];
  const end = text.indexOf('\n## ', start + heading.length);
  return text
    .slice(start, end < 0 ? undefined : end + 1)
    .trimEnd()
    .split('\n')
    .concat('');
}

function report(growth: readonly string[]): string {
  const minutes = ((Date.now() - started) / 60_000).toFixed(0);
  const lines = [
    '# Reliability',
    '',
    `Written by \`npm run soak -- --crash ${scale.crash} --disk ${scale.disk} --concurrency ${scale.concurrency} --two-runs ${scale.twoRuns} --fuzz ${scale.fuzz} --growth-days ${scale.growthDays} --sessions ${scale.sessions}\``,
    `on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, Node ${process.version}, ${minutes} minutes. The same cases run, bounded, in`,
    '`npm test` (`test/faults/`). A trial is one run of a case; a fault is what was done to it; a failure is any check',
    'that did not hold; data lost counts episodes, lessons, events or hook log rows that had been committed and were',
    'then missing.',
    '',
    '| case | trials | faults injected | failures | data lost |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.case} | ${row.trials} | ${row.faults} | ${row.failures} | ${row.lost} |`),
    '',
    '## What each case checks',
    '',
    '- **SIGKILL**: a copy of the same home per trial; the command is killed at a point spread over its measured run.',
    '  Before the kill the committed rows are read (WAL lets a reader in beside the writer); after it, `PRAGMA',
    '  integrity_check` and `foreign_key_check` must pass, every committed episode and lesson must still be there,',
    '  and a rerun must reach the episodes and lessons of an uninterrupted run (recorded times aside). A night the',
    '  killed run had committed is slept again by the rerun, so that rerun is compared with two uninterrupted nights.',
    '- **Full disk**: a tmpfs filled to a random number of bytes left, or a file size limit (`ulimit -f`). The command',
    '  must exit 1 with one line naming the problem (never exit 0 with writes refused); the store must pass its',
    '  checks and keep every row; a sleep is all or nothing; once there is room, a rerun reaches the state of a run',
    '  that never met a full disk.',
    '- **Concurrency**: 16 hooks started at once (REMEM_DEBUG on, so a hook that fails open says why) beside an ingest',
    '  and a sleep a week later and the MCP server driven by the official client; half the trials without the',
    '  compiled index, so the hooks read the store. Every process exits 0, nothing says SQLITE_BUSY, every hook that',
    "  answered did so within its deadline and left a row in the hooks' log, and the next `remem run` audits each.",
    '- **Writers**: two ingests of the same new material and a sleep at once (two sessions ending together, each',
    '  hook starting an ingest, while the nightly job runs): every one exits 0 and no episode is missing or doubled.',
    '- **Two runs**: one runs, the other exits 1 saying another run holds the lock; the store equals one run.',
    '- **Fuzzed**: fast-check, random values and valid inputs damaged (a character changed, a cut, bytes put in, a',
    '  field replaced or removed). Nothing throws; every refusal names its reason; a damaged signed record is never',
    '  taken; garbage lines beside valid ones lose no episode; the commons and the proxy never fail inside.',
    '- **Security**: requests without the token, with a wrong one, from another origin, for another host name, and',
    '  over the body limit (with and without a length); an order inside transcripts and events must reach lessons,',
    '  the prompt block and a prime answer only inside quotes; secrets must be masked in lessons and absent from the',
    '  file `remem share` writes.',
    '',
    ...mustNotSection(),
    ...keptSection(args.out, '## Secrets'),
  ];
  if (growth.length) {
    lines.push(
      '## Growth',
      '',
      'A heavy user replayed night by night (`bench/growth.ts`): 50 sessions a day, two of them as Claude Code',
      'transcripts and the rest as the events their surprises send; most surprises recur, some are new each week.',
      'Each night runs `remem ingest`, `remem sleep` and `remem render` as separate processes with REMEM_NOW. Per',
      'month: the store, the home without the agent folders, the rendered memory folders and the MEMORY.md an agent',
      'loads at session start, the tokens the prompt hook adds over a sampled session, and median command times',
      '(process start included).',
      '',
      ...growth,
      '',
    );
  }
  if (failures.length) {
    lines.push(
      '## Failures',
      '',
      ...failures.slice(0, 50).map((failure) => `- ${failure.replace(/\n/g, ' ')}`),
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

await main();
