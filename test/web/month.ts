import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintError } from '../e2e/memories.ts';
import { remem } from '../helpers/remem.ts';

/** March 2026: the fixture transcripts happened from the 2nd to the 12th. */
export function march(dayOfMonth: number, hour = 10, minute = 0): string {
  return new Date(Date.UTC(2026, 2, dayOfMonth, hour, minute)).toISOString();
}

/** The night the month ends on: every command after the replay reads the store as of this morning. */
export const monthEnd = march(32, 6);

const tidepool = '/home/maya/code/tidepool';

/** Whether the default holdout (half, by SHA-256 of the session id) holds a session out. */
export function heldOut(session: string): boolean {
  return createHash('sha256').update(session).digest().readUInt32BE(0) / 2 ** 32 < 0.5;
}

/** Session ids for the primes: the first `count` the holdout shows, and the first it holds out. */
function sessions(prefix: string, count: number): { shown: string[]; held: string[] } {
  const shown: string[] = [];
  const held: string[] = [];
  for (let n = 0; shown.length < count || held.length < count; n++) {
    const id = `${prefix}-${n}`;
    if (heldOut(id)) {
      if (held.length < count) held.push(id);
    } else if (shown.length < count) shown.push(id);
  }
  return { shown, held };
}

function event(fields: Record<string, unknown>): string {
  return JSON.stringify({ agent: 'claude-code', cwd: tidepool, ...fields });
}

const pnpm = (session: string, at: string, what = 'zod') =>
  event({
    kind: 'correction',
    said: `it's pnpm in this repo, not npm. pnpm add ${what}`,
    agent_did: `I'll install ${what} with npm install ${what}.`,
    session,
    at,
  });

const exportError = (session: string, at: string) =>
  event({
    kind: 'error',
    title: 'Bash: Run the export tests',
    happened: 'throw new CACError(`Unknown option `--station``)',
    session,
    at,
  });

const feet =
  'I was wrong: the NOAA API returns heights in feet after all, not metres, when the station is in the US.';

const tideSurprise = (session: string, at: string, said: string) =>
  event({ kind: 'surprise', text: said, session, at });

function run(home: string, args: string[], now: string, input?: string, cwd?: string): string {
  const result = remem(args, {
    home,
    now,
    ...(input === undefined ? {} : { input }),
    ...(cwd === undefined ? {} : { cwd }),
  });
  if (result.code !== 0) throw new Error(`remem ${args.join(' ')} at ${now}: ${result.stderr}`);
  return result.stdout;
}

function ingestEvents(home: string, at: string, events: string[]): void {
  const file = join(home, `events-${at.slice(0, 10)}.jsonl`);
  writeFileSync(file, `${events.join('\n')}\n`);
  run(home, ['ingest', '--events', file], at);
}

function primePrompt(home: string, session: string, at: string, prompt: string): void {
  const payload = { hook_event_name: 'UserPromptSubmit', session_id: session, cwd: tidepool, prompt };
  run(home, ['prime'], at, JSON.stringify(payload));
}

/** What the replayed month left in the store, for the tests to check against. */
export interface Month {
  home: string;
  /** The other memory whose lesson this one received. */
  peer: string;
  primed: { shown: string[]; held: string[] };
}

/** Another memory meets the same lint error twice and shares what it learned through a folder. */
function sharePeerLesson(root: string, folder: string): string {
  const peer = join(root, 'peer');
  const project = join(root, 'peer-project');
  mkdirSync(project, { recursive: true });
  mkdirSync(peer, { recursive: true });
  for (const [day, session] of [
    [18, 'peer-one'],
    [19, 'peer-two'],
  ] as const) {
    ingestEvents(peer, march(day, 22), [lintError(project, session, march(day, 12))]);
    run(peer, ['sleep'], march(day + 1, 4));
  }
  run(peer, ['share', '--enable'], march(20, 5), undefined, project);
  run(peer, ['share', '--folder', folder], march(20, 5));
  return peer;
}

/**
 * Fills a memory as a month of use would: the fixture and example transcripts ingested and slept on, then
 * nights of events (repeated corrections and errors, stated surprises, sessions primed at their prompts, shown
 * or held out) through the end of March, each night run as the nightly job runs it.
 */
export function fillMonth(root: string, repoRoot: string): Month {
  const home = join(root, 'home');
  const folder = join(root, 'shared');
  mkdirSync(home, { recursive: true });
  run(
    home,
    [
      'ingest',
      '--claude',
      join(repoRoot, 'test', 'fixtures', 'claude'),
      '--claude',
      join(repoRoot, 'examples', 'claude'),
    ],
    march(12, 23),
  );
  run(home, ['run'], march(13, 4));
  const primed = sessions('tide', 2);
  let peer = '';
  const nights: Record<number, (day: number) => void> = {
    14: (day) => {
      for (const session of [primed.shown[0]!, primed.held[0]!]) {
        primePrompt(home, session, march(day, 9), 'install p-retry in this repo');
      }
      ingestEvents(home, march(day, 22), [
        pnpm(primed.shown[0]!, march(day, 9, 30)),
        pnpm(primed.held[0]!, march(day, 10)),
      ]);
    },
    16: (day) => ingestEvents(home, march(day, 22), [exportError('w3-a', march(day, 11))]),
    18: (day) =>
      ingestEvents(home, march(day, 22), [
        tideSurprise(
          'w3-b',
          march(day, 14),
          'I expected the NOAA API to return heights in feet, but it returns metres.',
        ),
      ]),
    19: (day) =>
      ingestEvents(home, march(day, 22), [
        tideSurprise(
          'w3-c',
          march(day, 15),
          'I expected the NOAA API to return heights in feet, but they come back in metres.',
        ),
      ]),
    21: () => {
      peer = sharePeerLesson(root, folder);
      run(home, ['receive', '--folder', folder], march(21, 8));
    },
    23: (day) => {
      for (const session of [primed.shown[1]!, primed.held[1]!]) {
        primePrompt(home, session, march(day, 9), 'install p-retry and dayjs in this repo');
      }
      ingestEvents(home, march(day, 22), [
        pnpm(primed.held[1]!, march(day, 10), 'dayjs'),
        exportError('w4-a', march(day, 12)),
      ]);
    },
    25: (day) => ingestEvents(home, march(day, 22), [lintError(tidepool, 'w4-d', march(day, 15))]),
    27: (day) => ingestEvents(home, march(day, 22), [tideSurprise('w4-b', march(day, 16), feet)]),
    28: (day) => ingestEvents(home, march(day, 22), [tideSurprise('w4-c', march(day, 11), feet)]),
    29: () => {
      const lessons = JSON.parse(run(home, ['lessons', '--json'], march(29, 8))) as {
        lessons: { id: number; text: string }[];
      };
      const find = (words: string) => lessons.lessons.find((lesson) => lesson.text.includes(words))!.id;
      run(
        home,
        ['relate', String(find('after all')), 'refutes', String(find('but they come back'))],
        march(29, 8),
      );
    },
    31: (day) => ingestEvents(home, march(day, 22), [exportError('w5-a', march(day, 10))]),
  };
  for (let day = 13; day <= 31; day++) {
    nights[day]?.(day);
    run(home, ['run'], march(day + 1, 4));
  }
  return { home, peer, primed };
}
