import { createHash } from 'node:crypto';
import {
  clip,
  ERROR_CHARS,
  ERROR_LINES,
  errorExcerpt,
  folderLink,
  INPUT_CHARS,
  isObject,
  stringOf,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBody } from './types.ts';

/**
 * Aider's chat history (docs/formats/aider.md): `.aider.chat.history.md` in the folder aider ran in, one Markdown
 * file every run there appends to. A run opens with `# aider chat started at …`; the person's input is written as
 * `#### ` lines, aider's own messages (edits applied or refused, questions and their answers) as `> ` lines, and the
 * model's reply as plain Markdown between them. Both of aider's own kinds end with two spaces (a Markdown line
 * break), which the model's headings and quotes do not: where the file keeps them, they tell the three apart. Where
 * something trimmed them, a `#### ` line is the person's only outside a code fence and not right after the model's
 * words, and a `> ` line outside a fence is aider's.
 *
 * Remem reads each run as a session, and what it makes of the Markdown as lines it writes — the session, then each
 * prompt, reply, edit, lint and shell command — which are what is archived under `raw/` and parsed here.
 */

const STARTED = /^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$/;
/** A code fence: its marker (three or more backticks or tildes) and what follows it on the line. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** What aider appends to each line it writes itself: a Markdown line break. */
const BREAK = / {2}$/;

/** Commands whose words are a message to the model (`/ask why …`); every other `/` command is aider's, not a message. */
const MESSAGE_COMMANDS = /^\/(?:ask|code|architect|context|chat)\s+(\S[\s\S]*)$/;
const COMMAND = /^\/[a-z][a-z-]*(?:\s|$)/;

/** Aider's words when the model's edit could not be applied: the edit format not kept, a SEARCH block that matched nothing. */
const EDIT_FAILED =
  /did not conform to the edit format|SEARCH\/REPLACE blocks? failed to match|failed to exactly match|^Malformed response|No filename provided before|^Failed to apply edit/i;
const APPLIED = /^Applied edit to (.+?)\s*$/;
const NO_MATCH_IN = /failed to exactly match lines in (\S.*?)\s*$/;
const LINT = /^Fix lint errors in (.+?)\? \(Y\)es\/\(N\)o/;
const SHELL = /^Run shell commands?\? \(Y\)es\/\(N\)o/;
/**
 * Messages only aider writes (after its `> `): the tokens a reply cost, an edit applied, a commit, a command run, a
 * question it asks. The line before a shell question is one of these when aider quotes no command there.
 */
const AIDER_SAYS =
  /^(?:Tokens: |Applied edit to |Commit [0-9a-f]{7} |Added |Add command output|Running |Aider v|Main model: |Git repo: |Repo-map: |Run shell commands?\? |Fix lint errors in |The LLM did not conform|Only \d+ reflections allowed|Please answer with)/;

/** What a line of the history is: the person's input, aider's own message, or the model's reply. */
type Kind = 'prompt' | 'tool' | 'text';

/** One of the lines Remem writes of an aider run. */
type AiderLine =
  | { session: { folder: string; started: string } }
  | { prompt: { text: string } }
  | { reply: { text: string } }
  | { edit: { file: string; failed: boolean; text: string } }
  | { lint: { file: string; text: string } }
  | { shell: { command: string } };

export interface AiderSession {
  /**
   * The run's start as aider wrote it (`YYYY-MM-DD HH:MM:SS`, the machine's local time), or '' before any; `#2`, `#3`
   * after it for a second and third run started in the same second.
   */
  started: string;
  bytes: Buffer;
}

/** Each run in an aider history, as the lines Remem writes of it; a run with no prompt is left out. */
export function aiderSessionLines(markdown: string, folder: string): AiderSession[] {
  const lines = markdown.split(/\r?\n/);
  // Whether this file kept the line breaks aider writes: one `#### ` line with them says it did.
  const strict = lines.some((line) => line.startsWith('#### ') && BREAK.test(line));
  const sessions: AiderSession[] = [];
  let run: { started: string; blocks: { kind: Kind; lines: string[] }[] } = { started: '', blocks: [] };
  // Where the file kept no line breaks to tell aider's lines by: the fence the model's reply is inside, and what the
  // last line with words in it was (aider's, the person's, or the model's).
  let fence: string | null = null;
  let before: Kind | null = null;
  const close = () => {
    const out = run.blocks.flatMap((block) => linesOf(block.kind, block.lines));
    if (!out.some((line) => 'prompt' in line)) return;
    // Aider writes no time but the run's start: every line of the run is given it.
    const at = isoOf(run.started);
    const all: AiderLine[] = [{ session: { folder, started: run.started } }, ...out];
    // Two runs started in the same second are two sessions all the same.
    const again = sessions.filter((session) => session.started.split('#')[0] === run.started).length;
    sessions.push({
      started: again === 0 ? run.started : `${run.started}#${again + 1}`,
      bytes: Buffer.from(`${all.map((line) => JSON.stringify({ at, ...line })).join('\n')}\n`),
    });
  };
  for (const line of lines) {
    const started = STARTED.exec(line);
    if (started) {
      close();
      run = { started: started[1]!, blocks: [] };
      fence = null;
      before = null;
      continue;
    }
    // Without them, a message only aider writes closes whatever fence the model's reply left open.
    if (!strict && line.startsWith('> ') && AIDER_SAYS.test(line.slice(2))) fence = null;
    const ours = strict ? BREAK.test(line) : fence === null;
    // Without the line breaks, a `#### ` line right after the model's words is its heading: aider writes its own
    // lines (the tokens a reply cost, the edits applied) between a reply and the next input.
    const input = line.startsWith('#### ') || line === '####';
    const kind: Kind =
      ours && input && (strict || before !== 'text') ? 'prompt' : ours && /^> ?/.test(line) ? 'tool' : 'text';
    if (!strict && kind === 'text') fence = fenceAfter(fence, line);
    if (line.trim() !== '') before = kind;
    const text =
      kind === 'prompt'
        ? line.slice(5).trimEnd()
        : kind === 'tool'
          ? line.replace(/^> ?/, '').trimEnd()
          : line;
    const last = run.blocks.at(-1);
    if (last?.kind === kind) last.lines.push(text);
    else run.blocks.push({ kind, lines: [text] });
  }
  close();
  return sessions;
}

/**
 * The fence open after a line of the model's reply: a fence opens with a marker and closes with a marker of the same
 * character, at least as long, and nothing after it (CommonMark); a shorter or other one inside is the code's.
 */
function fenceAfter(open: string | null, line: string): string | null {
  const marker = FENCE.exec(line);
  if (!marker) return open;
  if (open === null) return marker[1]!;
  const closes = marker[1]![0] === open[0] && marker[1]!.length >= open.length && marker[2]!.trim() === '';
  return closes ? null : open;
}

/** What one run of lines of a kind says: a prompt, a reply, or the edits, lints and shell commands aider reported. */
function linesOf(kind: Kind, lines: readonly string[]): AiderLine[] {
  if (kind === 'text') {
    const text = lines.join('\n').trim();
    return text === '' ? [] : [{ reply: { text } }];
  }
  if (kind === 'prompt') {
    const said = lines.join('\n').trim();
    if (said === '' || said === '<blank>') return [];
    const message = MESSAGE_COMMANDS.exec(said);
    if (message) return [{ prompt: { text: message[1]!.trim() } }];
    return COMMAND.test(said) ? [] : [{ prompt: { text: said } }];
  }
  return toolLines(lines);
}

function toolLines(lines: readonly string[]): AiderLine[] {
  const out: AiderLine[] = [];
  const failedAt = lines.findIndex((line) => EDIT_FAILED.test(line));
  if (failedAt >= 0) {
    const file = lines.map((line) => NO_MATCH_IN.exec(line)?.[1]).find((name) => name !== undefined) ?? '';
    // Aider's own words from the first that says the edit failed: its first line need not look like an error.
    const text = clip(
      lines
        .slice(failedAt, failedAt + ERROR_LINES)
        .join('\n')
        .trimEnd(),
      ERROR_CHARS,
    );
    out.push({ edit: { file, failed: true, text } });
  }
  lines.forEach((line, i) => {
    const applied = APPLIED.exec(line);
    if (applied) out.push({ edit: { file: applied[1]!, failed: false, text: '' } });
    const lint = LINT.exec(line);
    if (lint) {
      const start = lines.findLastIndex((before, j) => j < i && /^#+ Fix any errors below/.test(before));
      const report = lines.slice(start < 0 ? 0 : start + 1, i).join('\n');
      out.push({ lint: { file: lint[1]!, text: errorExcerpt(report) } });
    }
    // The command is the line before the question (`confirm_ask`'s subject). Of several commands aider quotes only
    // the first line, the rest as plain text: those are left out.
    const command = SHELL.test(line) && i > 0 ? lines[i - 1]!.trim() : '';
    if (command !== '' && !AIDER_SAYS.test(command)) out.push({ shell: { command } });
  });
  return out;
}

/** An aider run's local start (`YYYY-MM-DD HH:MM:SS`) as ISO 8601; '' when it has none. */
function isoOf(started: string): string {
  const at = new Date(started.replace(' ', 'T'));
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  const id = `${line}`;
  const at = stringOf(value['at']) ?? '';
  if (isObject(value['session'])) return { turns: folderLink(value['session']['folder'], line, at) };
  const stamp = { line, at };
  const bodies = bodiesOf(value, id);
  return bodies
    ? { turns: turnsOf(stamp, bodies) }
    : { turns: [], warning: 'neither a session, a prompt, a reply, an edit, a lint nor a shell command' };
}

function bodiesOf(value: Record<string, unknown>, id: string): TurnBody[] | null {
  if (isObject(value['prompt'])) {
    const text = stringOf(value['prompt']['text'])?.trim() ?? '';
    return text === '' ? [] : [{ type: 'prompt', text }];
  }
  if (isObject(value['reply'])) {
    const text = stringOf(value['reply']['text'])?.trim() ?? '';
    return text === '' ? [] : [{ type: 'reply', text, messageId: id }];
  }
  if (isObject(value['edit'])) {
    const edit = value['edit'];
    const file = stringOf(edit['file']) ?? '';
    const call = callOf(
      id,
      'aider edit',
      file === '' ? 'SEARCH/REPLACE edit' : `edit ${file}`,
      file || '(SEARCH/REPLACE edit blocks)',
    );
    const failed = edit['failed'] === true;
    return [
      call,
      {
        type: 'result',
        callId: id,
        status: failed ? 'failed' : 'ok',
        text: failed ? (stringOf(edit['text']) ?? '') : '',
      },
    ];
  }
  if (isObject(value['lint'])) {
    const file = stringOf(value['lint']['file']) ?? '';
    const failure = stringOf(value['lint']['text']) ?? '';
    return [
      callOf(id, 'aider lint', `lint ${file}`, file),
      { type: 'result', callId: id, status: 'failed', text: failure },
    ];
  }
  if (isObject(value['shell'])) {
    const command = stringOf(value['shell']['command']) ?? '';
    // What a command that ran printed is not written to the history: its result is not known.
    return [callOf(id, 'aider shell', command.split('\n')[0]!, command)];
  }
  return null;
}

/** A call of aider's own, on the line `id`. */
function callOf(id: string, tool: string, description: string, input: string): TurnBody {
  return {
    type: 'call',
    callId: id,
    tool,
    description: clip(description, 200),
    input: clip(input, INPUT_CHARS),
    messageId: id,
  };
}

/** A source's path: the history file, `#`, and the run's start (`AiderSession.started`, '' before any run). */
const SOURCE = /^(.*)#(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:#\d+)?)?$/s;

/** `<history file>#<start>` → `aider-<the file's digest>-<start, digits only>`: one session a run, unique to its file. */
function sessionOf(path: string): string {
  const source = SOURCE.exec(path);
  const file = source?.[1] ?? path;
  const started = (source?.[2] ?? '').replace(/\D/g, '');
  const digest = createHash('sha256').update(file).digest('hex').slice(0, 12);
  return `aider-${digest}-${started || 'start'}`;
}

export const aiderReader: Reader = { agent: 'aider', sessionOf, parseLine };
