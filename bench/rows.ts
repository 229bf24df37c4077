/**
 * `npm run bench -- rows [--data DIR]`: each labelled row written as a session of its own, in the ways agents and
 * other tools write transcripts, read by the built `remem`, and what it found set beside the labels and beside the
 * same detectors run in this process on the same rows. The shipped models were fitted on these rows, so the figures
 * are in-sample: the point is that the binary finds what the bench measures, however a transcript is written. A row
 * the two decide differently is a reader, or a derivation, that lost or changed what was said.
 *
 * - Corrections: Claude Code (with `parentUuid`, without it, without `uuid`), SpecStory, Codex.
 * - Stated surprises: the paragraph as a reply of its own, and as the reply to a prompt.
 * - Failed calls: a shell call and its failing result, as Claude Code (its `Exit code N` header first), Codex (its
 *   header) and SpecStory's command line write one, and as the oldest SpecStory exports show one (the output alone,
 *   nothing saying it failed), read as the agent's mistake or the environment's.
 * - The Stop reminder: `remem prime` answering the Stop hook for each closing, with a memory holding one lesson
 *   learned after an offer.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { classifyFailure, detectCorrection, detectSurprise } from '../src/episodes/detect.ts';
import { exitCodeOf } from '../src/episodes/detect-failure.ts';
import { offersWork } from '../src/episodes/detect-handback.ts';
import { paragraphs } from '../src/episodes/text.ts';
import { claudeSession, type Step } from '../test/e2e/sessions.ts';
import { findDataDir, hasData, type Raw, readRows } from '../test/episodes/score.ts';
import { remem as runRemem } from '../test/helpers/remem.ts';
import { shellBlock, terminalSegment } from '../test/stream/specstory-exports.ts';
import { specstoryExport, type TimedTurn } from './_transcripts.ts';

const CWD = '/work/rows';

type Row = { fields: Raw; batch: string; index: number };

function rowsOf(dir: string, file: string): Row[] {
  return [
    ...readRows(dir, file).map((fields) => ({ fields, batch: 'first batch' })),
    ...readRows(join(dir, 'batch2'), file).map((fields) => ({ fields, batch: 'second batch' })),
  ].map((row, index) => ({ ...row, index }));
}

/** `remem ARGS` in `home`, its output; a failure stops the bench with what remem said. */
function remem(home: string, args: string[], input = ''): string {
  const result = runRemem(args, { home, input, env: { REMEM_HOLDOUT: '0' } });
  if (result.code !== 0) throw new Error(`remem ${args[0]} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** Reads `folder` (named to ingest with `flag`) into `home`; the rows episodes of `kind` were found in. */
function readThrough(
  home: string,
  flag: string,
  folder: string,
  kind: string,
): Map<number, { kind: string }> {
  remem(home, ['ingest', flag, folder]);
  return found(home, kind);
}

/** One way of writing the rows: what the binary found against the labels, and against this process's decisions. */
function compared(
  name: string,
  rows: readonly Row[],
  positive: (row: Row) => boolean,
  hits: ReadonlyMap<number, unknown>,
  here: (row: Row) => boolean,
  text: (row: Row) => string,
): string {
  const hit = (row: Row) => hits.has(row.index);
  return `  ${name}: ${figures(rows, positive, hit)}; ${differences(rows, hit, here, text)}`;
}

/** The rows episodes of `kind` (any but sessions: `*`) were found in, by the number each row's file name ends with. */
function found(home: string, kind: string): Map<number, { kind: string }> {
  const listed = JSON.parse(remem(home, ['episodes', '--json', '--all', '--limit', '1000000'])) as {
    episodes: { kind: string; source: { file?: string } | null }[];
  };
  const rows = new Map<number, { kind: string }>();
  for (const episode of listed.episodes) {
    const index = /(\d+)\.\w+$/.exec(episode.source?.file ?? '')?.[1];
    if (index !== undefined && (kind === '*' ? episode.kind !== 'session' : episode.kind === kind))
      rows.set(Number(index), episode);
  }
  return rows;
}

const stamp = (index: number, step: number) =>
  new Date(Date.UTC(2026, 10, 10) + index * 60_000 + step * 1000).toISOString();
const sessionId = (index: number) => `row-${String(index).padStart(5, '0')}`;

type Turn = Omit<TimedTurn, 'at'>;

/** The turns as Claude Code's steps, written as the session of row `index` (`claudeSession`'s options). */
function claudeCode(root: string, index: number, steps: readonly Step[], options = {}): void {
  claudeSession(root, CWD, sessionId(index), stamp(index, 0), steps, options);
}

const claudeSteps = (turns: readonly Turn[]): Step[] =>
  turns.map((turn) => (turn.role === 'user' ? { user: turn.text } : { agent: turn.text }));

/** The turns as a SpecStory export (`specstoryExport`), named after row `index`. */
function specstory(root: string, index: number, turns: readonly Turn[]): void {
  const folder = join(root, '.specstory', 'history');
  mkdirSync(folder, { recursive: true });
  const timed = turns.map((turn, step) => ({ ...turn, at: stamp(index, step) }));
  writeFileSync(join(folder, `${sessionId(index)}.md`), specstoryExport(stamp(index, 0), timed));
}

/** A Codex rollout of row `index`: its session record, then `records` (each a `[step, type, payload]`). */
function codexRollout(root: string, index: number, records: readonly [number, string, object][]): void {
  const folder = join(root, 'sessions', '2026', '11', '10');
  mkdirSync(folder, { recursive: true });
  const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  const meta = {
    id,
    timestamp: stamp(index, 0),
    cwd: CWD,
    originator: 'codex_cli_rs',
    cli_version: '0.50.0',
  };
  const lines = [
    { timestamp: stamp(index, 0), type: 'session_meta', payload: { ...meta, source: 'cli' } },
    ...records.map(([step, type, payload]) => ({ timestamp: stamp(index, step), type, payload })),
  ];
  writeFileSync(
    join(folder, `rollout-2026-11-10T10-00-00-${id}.jsonl`),
    `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
  );
}

/** A Codex rollout of the turns, each visible turn written twice (an event and a response item), as Codex does. */
function codex(root: string, index: number, turns: readonly Turn[]): void {
  codexRollout(
    root,
    index,
    turns.flatMap((step, at): [number, string, object][] => {
      const user = step.role === 'user';
      return [
        [at + 1, 'event_msg', { type: user ? 'user_message' : 'agent_message', message: step.text }],
        [
          at + 1,
          'response_item',
          {
            type: 'message',
            role: step.role,
            content: [{ type: user ? 'input_text' : 'output_text', text: step.text }],
          },
        ],
      ];
    }),
  );
}

/**
 * The exit code a failed shell call is written with, as Claude Code's and Codex's headers give one: the code the
 * error names, else 1. The labelled errors begin at their first error line, so most name none.
 */
const exitOf = (error: string) => exitCodeOf(error) ?? 1;

/** A Codex rollout of a shell call that failed: the command, and its output under the header Codex writes. */
function codexFailure(root: string, index: number, command: string, error: string): void {
  const user = {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'build the project and fix what fails' }],
  };
  codexRollout(root, index, [
    [1, 'response_item', user],
    [
      2,
      'response_item',
      {
        type: 'function_call',
        name: 'shell',
        call_id: 'c1',
        arguments: JSON.stringify({ command: ['bash', '-lc', command] }),
      },
    ],
    [
      3,
      'response_item',
      {
        type: 'function_call_output',
        call_id: 'c1',
        output: `Exit code: ${exitOf(error)}\nWall time: 0.4 seconds\nOutput:\n${error}`,
      },
    ],
  ]);
}

/** A SpecStory export of row `index` in which the agent's one message is `call`, asked to build the project. */
function specstoryCall(root: string, index: number, call: string): void {
  specstory(root, index, [
    { role: 'user', text: 'build the project and fix what fails' },
    { role: 'assistant', text: call },
  ]);
}

/** Precision and recall against the labels, per batch, of the rows `hit` holds. */
function figures(rows: readonly Row[], positive: (row: Row) => boolean, hit: (row: Row) => boolean): string {
  return ['first batch', 'second batch']
    .map((batch) => {
      const mine = rows.filter((row) => row.batch === batch);
      const right = mine.filter((row) => hit(row) && positive(row)).length;
      const fired = mine.filter(hit).length;
      const positives = mine.filter(positive).length;
      const ratio = (k: number, n: number) => (n === 0 ? '–' : (k / n).toFixed(2));
      return `${batch} P ${ratio(right, fired)} R ${ratio(right, positives)} (${right}/${positives}, ${fired - right} false)`;
    })
    .join('; ');
}

/** How many rows the binary and this process decide differently, with a few of them. */
function differences(
  rows: readonly Row[],
  binary: (row: Row) => boolean,
  here: (row: Row) => boolean,
  text: (row: Row) => string,
): string {
  const apart = rows.filter((row) => binary(row) !== here(row));
  const shown = apart
    .slice(0, 6)
    .map((row) => `${here(row) ? 'missed' : 'added'}: "${text(row).replace(/\s+/g, ' ').slice(0, 70)}"`);
  return `${apart.length} decided differently${shown.length ? ` (${shown.join('; ')})` : ''}`;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' } } });
  const dir = findDataDir(values.data);
  if (!hasData(dir) || !hasData(join(dir, 'batch2')))
    throw new Error(`no labelled data in ${dir} and its batch2/ (pass --data DIR or set REMEM_DATA_DIR)`);
  const root = mkdtempSync(join(tmpdir(), 'remem-bench-rows-'));
  try {
    const home = (name: string) => join(root, 'homes', name);

    const messages = rowsOf(dir, 'messages');
    const isCorrection = (row: Row) => row.fields['label'] === 'correction';
    const turns = (row: Row): Turn[] => [
      ...(row.fields['agent_before']?.trim()
        ? [{ role: 'assistant' as const, text: row.fields['agent_before'] }]
        : []),
      { role: 'user', text: row.fields['said'] ?? '' },
    ];
    const here = (row: Row) =>
      detectCorrection(row.fields['said'] ?? '', row.fields['agent_before'] || undefined) !== null;
    console.log(
      `Corrections, ${messages.length} messages; in this process: ${figures(messages, isCorrection, here)}`,
    );
    const writers: [string, (folder: string, row: Row) => void, string][] = [
      ['Claude Code', (folder, row) => claudeCode(folder, row.index, claudeSteps(turns(row))), '--claude'],
      [
        'Claude Code, no parentUuid',
        (folder, row) => claudeCode(folder, row.index, claudeSteps(turns(row)), { parents: false }),
        '--claude',
      ],
      [
        'Claude Code, no uuid',
        (folder, row) => claudeCode(folder, row.index, claudeSteps(turns(row)), { uuids: false }),
        '--claude',
      ],
      ['SpecStory', (folder, row) => specstory(folder, row.index, turns(row)), '--specstory'],
      ['Codex', (folder, row) => codex(folder, row.index, turns(row)), '--codex'],
    ];
    for (const [name, write, flag] of writers) {
      const folder = join(root, 'sources', name.replace(/\W+/g, '-'));
      for (const row of messages) write(folder, row);
      const hits = readThrough(home(name.replace(/\W+/g, '-')), flag, folder, 'correction');
      console.log(compared(name, messages, isCorrection, hits, here, (row) => row.fields['said'] ?? ''));
    }

    const surprises = rowsOf(dir, 'surprises');
    const isSurprise = (row: Row) => row.fields['label'] === 'surprise';
    const states = (row: Row) =>
      paragraphs(row.fields['text'] ?? '').some((paragraph) => detectSurprise(paragraph) !== null);
    console.log(
      `\nStated surprises, ${surprises.length} paragraphs; in this process: ${figures(surprises, isSurprise, states)}`,
    );
    for (const [name, prompt] of [
      ['a reply of its own', false],
      ['the reply to a prompt', true],
    ] as const) {
      const folder = join(root, 'sources', `surprise-${prompt}`);
      for (const row of surprises)
        claudeCode(folder, row.index, [
          ...(prompt ? [{ user: 'please go on with the task' }] : []),
          { agent: row.fields['text'] ?? '' },
        ]);
      const hits = readThrough(home(`surprise-${prompt}`), '--claude', folder, 'surprise');
      console.log(compared(name, surprises, isSurprise, hits, states, (row) => row.fields['text'] ?? ''));
    }

    const failures = rowsOf(dir, 'tool_failures');
    const isMistake = (row: Row) => row.fields['label'] === 'agent_mistake';
    const command = (row: Row) => row.fields['input_summary'] ?? '';
    const error = (row: Row) => row.fields['error_first_lines'] ?? '';
    const right = (decide: (row: Row) => boolean) =>
      failures.filter((row) => decide(row) === isMistake(row)).length;
    console.log(`\nFailed calls, ${failures.length}, agent's mistake or environment:`);
    const failureForms: [string, string, string, (folder: string, row: Row) => void][] = [
      [
        'a Claude Code Bash call',
        'Bash',
        '--claude',
        (folder, row) =>
          claudeCode(folder, row.index, [
            { user: 'build the project and fix what fails' },
            { call: { id: 't1', name: 'Bash', input: { command: command(row) } } },
            { failed: 't1', text: `Exit code ${exitOf(error(row))}\n${error(row)}` },
          ]),
      ],
      [
        'a Codex shell call',
        'shell',
        '--codex',
        (folder, row) => codexFailure(folder, row.index, command(row), error(row)),
      ],
      [
        'a SpecStory Bash block',
        'Bash',
        '--specstory',
        (folder, row) =>
          specstoryCall(folder, row.index, shellBlock('Bash', command(row), error(row), { failed: true })),
      ],
      [
        'an older SpecStory terminal call, its output alone',
        'run_terminal_cmd',
        '--specstory',
        (folder, row) =>
          specstoryCall(
            folder,
            row.index,
            `Building it.\n\n---\n\n${terminalSegment(command(row), error(row))}`,
          ),
      ],
    ];
    for (const [index, [name, tool, flag, write]] of failureForms.entries()) {
      const folder = join(root, 'sources', `failures-${index}`);
      for (const row of failures) write(folder, row);
      const failed = readThrough(home(`failures-${index}`), flag, folder, '*');
      const mistake = (row: Row) => failed.get(row.index)?.kind === 'error';
      const judged = (row: Row) =>
        classifyFailure({ tool, input: command(row), error: error(row) }).kind === 'agent_mistake';
      console.log(
        `  ${name}: right on ${right(mistake)} through the binary, ${right(judged)} in this process; ${differences(failures, mistake, judged, command)}; ${failures.length - failed.size} read as no failure`,
      );
    }

    const closings = rowsOf(dir, 'handbacks');
    const isOffer = (row: Row) => row.fields['label'] === 'handback' && row.fields['subtype'] === 'offer';
    const reminded = home('stop');
    const taught = join(root, 'sources', 'stop');
    for (const day of [0, 1])
      claudeCode(taught, 900_000 + day, [
        { user: 'add a retry to the fetch helper' },
        {
          agent:
            'I added the retry with exponential backoff. Would you like me to run the test suite to confirm?',
        },
        { user: "don't ask me, just run the tests yourself and tell me the result" },
        { agent: 'Ran them: all pass.' },
      ]);
    remem(reminded, ['ingest', '--claude', taught]);
    remem(reminded, ['sleep']);
    const fired = new Set(
      closings
        .filter((row) => {
          const payload = {
            session_id: `stop-${row.index}`,
            transcript_path: null,
            cwd: CWD,
            hook_event_name: 'Stop',
            stop_hook_active: false,
            last_assistant_message: row.fields['reply_tail'] ?? '',
          };
          return remem(reminded, ['prime'], JSON.stringify(payload)).includes('"decision":"block"');
        })
        .map((row) => row.index),
    );
    const waiting = (batch: string) =>
      closings.filter((row) => row.batch === batch && row.fields['subtype'] === 'waiting');
    const hook = (row: Row) => fired.has(row.index);
    const work = (row: Row) => offersWork(row.fields['reply_tail'] ?? '');
    console.log(
      `\nThe Stop reminder, ${closings.length} closings: ${figures(closings, isOffer, hook)}; waiting replies reminded ${['first batch', 'second batch'].map((batch) => `${waiting(batch).filter(hook).length} of ${waiting(batch).length}`).join(' and ')}; ${differences(closings, hook, work, (row) => (row.fields['reply_tail'] ?? '').slice(-70))} from offersWork in this process`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
