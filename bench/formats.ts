/**
 * `npm run bench -- formats [--histories DIR]`: the labelled histories (1,228 real turns of the person's, with the
 * agent's turns between them) written in each format a reader takes from a file — a Claude Code transcript, an aider
 * chat history, SpecStory exports, Cline's tasks, Continue's sessions — and read through the binary. Printed for each: the correction episodes found,
 * against the labels, and the messages found in one format and not in Claude Code's. The detector is the same; a
 * difference is a reader that lost or changed what the person or the agent said. The shipped correction model was
 * fitted on these turns: the figures describe the readers, not the detector. Each format's whole ingest (the process,
 * as a person runs it) is timed against Claude Code's of the same turns.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type LabelledHistory, readHistories } from '../src/measure/index.ts';
import { claudeSession } from '../test/e2e/sessions.ts';
import { findDataDir } from '../test/episodes/score.ts';
import { remem } from '../test/helpers/remem.ts';
import { specstoryExport } from './_transcripts.ts';

/** Aider writes local times: the binary and this writer agree on the zone. */
const ZONE = { TZ: 'UTC' };

type Session = LabelledHistory['sessions'][number];

/** The session's turns a second apart from its start. */
const timeOf = (session: Session, index: number) =>
  new Date(Date.parse(session.started) + index * 1000).toISOString();

function claudeCode(history: LabelledHistory, cwd: string, root: string): string[] {
  for (const session of history.sessions) {
    const steps = session.turns.map((turn) =>
      turn.role === 'user' ? { user: turn.text } : { agent: turn.text },
    );
    claudeSession(join(root, 'claude'), cwd, session.id, session.started, steps);
  }
  return ['--claude', join(root, 'claude')];
}

/**
 * As aider/io.py appends them: a run a session, the person's lines after `#### `, aider's own after `> ` (the tokens a
 * reply cost), each of those with a line break; `stripped`, as an editor or a hook that trims line ends leaves them.
 */
function aider(history: LabelledHistory, cwd: string, stripped: boolean): string[] {
  const text = history.sessions
    .map((session) => {
      const started = new Date(Date.parse(session.started)).toISOString().slice(0, 19).replace('T', ' ');
      const turns = session.turns.map((turn) =>
        turn.role === 'user'
          ? `\n${turn.text
              .split(/\r?\n/)
              .map((line) => `#### ${line}`.trimEnd())
              .join('  \n')}  \n`
          : `\n${turn.text.trim()}\n\n> Tokens: 2.4k sent, 310 received.  \n`,
      );
      return `\n# aider chat started at ${started}\n\n${turns.join('')}`;
    })
    .join('');
  const written = stripped ? text.replace(/[ \t]+$/gm, '') : text;
  writeFileSync(join(cwd, '.aider.chat.history.md'), written);
  return ['--aider', cwd];
}

/** As SpecStory's command line writes them (Markdown v2.1.0): a file a session, a time on each role. */
function specstory(history: LabelledHistory, cwd: string): string[] {
  const folder = join(cwd, '.specstory', 'history');
  mkdirSync(folder, { recursive: true });
  for (const session of history.sessions) {
    const turns = session.turns.map((turn, index) => ({ ...turn, at: timeOf(session, index) }));
    writeFileSync(join(folder, `${session.id}.md`), specstoryExport(session.started, turns));
  }
  return ['--specstory', cwd];
}

/** As Cline keeps its tasks in an editor's user folder: a task a session, the panel's messages and the first request. */
function cline(history: LabelledHistory, cwd: string, root: string): string[] {
  const user = join(root, 'Code', 'User');
  mkdirSync(join(user, 'workspaceStorage'), { recursive: true });
  for (const session of history.sessions) {
    const dir = join(user, 'globalStorage', 'saoudrizwan.claude-dev', 'tasks', session.id);
    mkdirSync(dir, { recursive: true });
    const messages = session.turns.map((turn, index) => ({
      ts: Date.parse(timeOf(session, index)),
      type: 'say',
      // A task opens with the person's words; a session the agent opened (a summary on resuming) opens with its reply.
      say:
        turn.role === 'assistant'
          ? index === 0
            ? 'completion_result'
            : 'text'
          : index === 0
            ? 'task'
            : 'user_feedback',
      text: turn.text,
    }));
    writeFileSync(join(dir, 'ui_messages.json'), JSON.stringify(messages));
    const first = `<environment_details>\n# Current Working Directory (${cwd}) Files\n</environment_details>`;
    writeFileSync(
      join(dir, 'api_conversation_history.json'),
      JSON.stringify([{ role: 'user', content: first }]),
    );
  }
  return ['--vscode', user];
}

/** As Continue keeps its sessions: a file a session naming the workspace, and the index that says when each began. */
function continueDev(history: LabelledHistory, cwd: string, root: string): string[] {
  const dir = join(root, '.continue', 'sessions');
  mkdirSync(dir, { recursive: true });
  for (const session of history.sessions) {
    const messages = session.turns.map((turn) => ({
      message: { role: turn.role, content: turn.text },
      contextItems: [],
    }));
    writeFileSync(
      join(dir, `${session.id}.json`),
      JSON.stringify({ sessionId: session.id, workspaceDirectory: cwd, history: messages }),
    );
  }
  const index = history.sessions.map((session) => ({
    sessionId: session.id,
    dateCreated: String(Date.parse(session.started)),
  }));
  writeFileSync(join(dir, 'sessions.json'), JSON.stringify(index));
  return ['--continue', join(root, '.continue')];
}

const FORMATS = {
  'claude-code': (history: LabelledHistory, cwd: string, root: string) => claudeCode(history, cwd, root),
  aider: (history: LabelledHistory, cwd: string) => aider(history, cwd, false),
  'aider, line ends trimmed': (history: LabelledHistory, cwd: string) => aider(history, cwd, true),
  specstory: (history: LabelledHistory, cwd: string) => specstory(history, cwd),
  cline: (history: LabelledHistory, cwd: string, root: string) => cline(history, cwd, root),
  continue: (history: LabelledHistory, cwd: string, root: string) => continueDev(history, cwd, root),
};

/** A message as compared: formats keep its words, not always the spaces at its lines' ends. */
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The built binary's output, with its memory in `root`; a run that fails stops the bench. */
function rememOut(args: string[], root: string): string {
  const result = remem(args, { home: join(root, 'remem'), env: ZONE });
  if (result.code !== 0) throw new Error(`remem ${args[0]}: ${result.stderr}`);
  return result.stdout;
}

/** The person's messages the binary made correction episodes of, read from the history in one format. */
function corrections(
  history: LabelledHistory,
  format: keyof typeof FORMATS,
): { said: Set<string>; warnings: number; ms: number } {
  const root = mkdtempSync(join(tmpdir(), 'remem-formats-'));
  try {
    const cwd = join(root, 'project');
    mkdirSync(cwd, { recursive: true });
    const flags = FORMATS[format](history, cwd, root);
    const started = performance.now();
    const report = JSON.parse(rememOut(['ingest', '--json', ...flags], root)) as { warningCount: number };
    const ms = performance.now() - started;
    const listed = JSON.parse(rememOut(['episodes', '--kind', 'correction', '--all', '--json'], root)) as {
      episodes: { said?: string | null }[];
    };
    const said = new Set(listed.episodes.map((episode) => plain(episode.said ?? '')));
    return { said, warnings: report.warningCount, ms };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { histories: { type: 'string' } } });
  const dir = values.histories ?? `${findDataDir()}/histories`;
  const histories = readHistories(dir);
  const labels = histories.reduce((sum, history) => sum + history.corrections.length, 0);
  const found: Record<string, Set<string>[]> = {};
  const took: Record<string, number> = {};
  console.log(
    `The labelled histories (${histories.length}, ${labels} corrections) in each format, read through the binary:\n`,
  );
  for (const format of Object.keys(FORMATS) as (keyof typeof FORMATS)[]) {
    let right = 0;
    let wrong = 0;
    let warnings = 0;
    took[format] = 0;
    found[format] = histories.map((history) => {
      const read = corrections(history, format);
      warnings += read.warnings;
      took[format]! += read.ms;
      const labelled = new Set(history.corrections.map((correction) => plain(correction.said)));
      for (const said of read.said) {
        if (labelled.has(said)) right++;
        else wrong++;
      }
      return read.said;
    });
    const precision = right / Math.max(1, right + wrong);
    console.log(
      `  ${format.padEnd(25)} ${right} of ${labels} labelled corrections found, ${wrong} other messages (precision ${precision.toFixed(2)}, recall ${(right / labels).toFixed(2)}); ${warnings} lines or files skipped`,
    );
  }
  // The same turns ingested from Claude Code's transcript are the floor each reader's whole ingest is timed against.
  console.log(
    `\n  ingest time, whole process, ratio to Claude Code's (${Math.round(took['claude-code']!)} ms for the 8 histories):`,
  );
  for (const format of Object.keys(took).filter((name) => name !== 'claude-code'))
    console.log(`    ${format.padEnd(25)} ${(took[format]! / took['claude-code']!).toFixed(2)}`);
  const base = found['claude-code']!;
  for (const format of ['aider', 'aider, line ends trimmed', 'specstory', 'cline', 'continue']) {
    const other = found[format]!;
    const only = other.flatMap((said, i) => [...said].filter((text) => !base[i]!.has(text)));
    const missing = base.flatMap((said, i) => [...said].filter((text) => !other[i]!.has(text)));
    console.log(
      `\n  ${format}: ${only.length} found only here, ${missing.length} found only in Claude Code's`,
    );
    for (const text of [...only.map((t) => `+ ${t}`), ...missing.map((t) => `- ${t}`)].slice(0, 12))
      console.log(`    ${text.slice(0, 150)}`);
  }
}
