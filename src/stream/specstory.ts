import { createHash } from 'node:crypto';
import {
  clip,
  ERROR_CHARS,
  firstLine,
  folderLink,
  INPUT_CHARS,
  isObject,
  stringOf,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBody } from './types.ts';

/**
 * SpecStory's Markdown exports (docs/formats/specstory.md): one file a chat under a project's `.specstory/history/`,
 * written by the SpecStory extension (Cursor, VS Code's Copilot) or its command line (Claude Code, Codex, Cursor's
 * and Gemini's command lines), and often committed. Each message opens with a role line — `_**User**_`,
 * `_**Assistant**_`, `_**Agent (model …)**_`, a time in brackets in later versions — and a `---` line stands between
 * two roles. An agent's message mixes its words with its tool calls: `<tool-use>` blocks (Markdown v2), `<details>`
 * blocks, and in the oldest exports plain segments between `---` lines ("Read file: …", a command and its output,
 * "Cancelled"). Thinking is kept in `<think>` blocks.
 *
 * Remem reads each file as a session, and what it makes of the Markdown as lines it writes — the session, then each
 * prompt, reply and tool call — which are what is archived under `raw/` and parsed here.
 */

const ROLE = /^_\*\*(User|Assistant|Agent)( - sidechain)?(?: \((.*)\))?\*\*_\s*$/;
const SESSION = /^<!-- (.+?) Session (\S+) \(([^)]*)\) -->\s*$/;
const TITLE_TIME = /^# .*?\((\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?Z?)\)\s*$/;
const FILE_TIME = /^(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})Z/;
const TIME = /(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:?\d{2})?/;
/** A segment of an older export that reports a tool's work rather than saying anything. */
const TOOL_SEGMENT =
  /^(?:Read file:|Searched (?:codebase|web|files)|Listed (?:directory|current directory)|Grep search|Could not (?:find|resolve)|Deleted file|Tool use:|Edit made|Model (?:provided|failed))/;
const TOOL_NAME = /data-tool-name="([^"]*)"|Tool use: \*\*([^*]+)\*\*/;
const SUMMARY = /<summary>([\s\S]*?)<\/summary>/;
const FAILED = /\*\*Error:?\*\*|<summary>[^<]*\b(?:failed|error)\b/i;
/** The command a summary names (`Run command: …`), blanked before the summary is read for a failure. */
const RUN_COMMAND = /(<summary>[^<]*?Run command: )([^<]*)/;
/** A call that runs a command in a shell: its output is read for how it ended. */
const SHELL_TOOL = /terminal|shell|bash|command|exec|powershell/i;
/**
 * A line of a command's output that says it failed, as the shells and the common tools write it at the start of a
 * line: the shell's own refusals, a Python traceback, npm's, git's and compilers' errors, a Gradle or Maven build
 * failure, PowerShell's error record, an exception named at the start of a line, a non-zero exit. The extension's
 * exports show a command's output without saying how it ended; a line of these says it.
 */
const FAILED_OUTPUT = new RegExp(
  [
    String.raw`^(?:[\w.-]+|\(eval\))(?::(?: line)? ?\d+)?: (?:[^\n]*: )?(?:command not found|[Nn]o such file or directory|[Pp]ermission denied|parse error|syntax error)`,
    String.raw`^Traceback \(most recent call last\):`,
    '^npm (?:ERR!|error) ',
    String.raw`^(?:\[[\w:-]+\] |[\w.-]+: )?(?:fatal|error|ERROR|Error)(?:\[E\d+\])?: `,
    String.raw`^(?:\[[\w:-]+\] )?\[ERROR\] `,
    String.raw`^(?:FAILURE: Build failed|BUILD FAILED|> Task \S+ FAILED)`,
    String.raw`^\s*\+ (?:CategoryInfo|FullyQualifiedErrorId)\s*: `,
    'is not recognized as (?:the |a )?name of a cmdlet|is not recognized as an internal or external command|^The system cannot find the (?:file|path) specified',
    String.raw`\berror TS\d{4,5}: `,
    String.raw`^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception): `,
    String.raw`^(?:Exit code:? ?|exited with code |Process exited with code |Command failed with exit code )[1-9]\d*`,
  ].join('|'),
  'm',
);
/** The fenced blocks of a call's report: the first is the command, the others what it printed. */
const FENCED = /^ {0,3}```[^\n]*\n([\s\S]*?)\n? {0,3}```[ \t]*$/gm;

/**
 * One of the HTML tags an export writes around a call (`<details>`, `</tool-use>`, `<tool-use data-tool-name=…>`).
 * Any `<…>` was stripped before, which ate a command's heredoc (`python - <<EOF` through the next `>`) and an error's
 * `<module>` or `<anonymous>`.
 */
const HTML_TAG = /<\/?(?:details|summary|tool-use|think|br|pre|code|div|span|p)\b[^<>]*>/gi;

/** One of the lines Remem writes of a SpecStory export. */
type SpecstoryLine =
  | { session: { folder: string; provider: string; id: string } }
  | { prompt: { text: string } }
  | { reply: { text: string; message: number } }
  | { tool: { name: string; input: string; failed: boolean; text: string; message: number } };

/** A SpecStory export as Remem reads it: its lines, and the chat it copies as its session comment names it. */
export interface SpecstoryExport {
  bytes: Buffer;
  /** The agent as SpecStory names it (`Claude Code`, `Codex CLI`, …) and its session id; '' when the export says none. */
  provider: string;
  id: string;
}

/**
 * The lines Remem writes of one SpecStory export; null when it holds no message from the person (not an export, or
 * one of a subagent alone).
 */
export function specstorySessionLines(
  markdown: string,
  fileName: string,
  folder: string,
): SpecstoryExport | null {
  const lines = markdown.split(/\r?\n/);
  let provider = '';
  let id = '';
  let at = timeOfFile(fileName);
  const messages: { role: 'user' | 'agent' | 'sidechain'; at: string; lines: string[] }[] = [];
  for (const line of lines) {
    // A role line is read wherever it stands: a message's code fence left open must not hide every message after it.
    const role = ROLE.exec(line);
    if (role) {
      const time = TIME.exec(role[3] ?? '');
      const kind = role[2] ? 'sidechain' : role[1] === 'User' ? 'user' : 'agent';
      // A message with no time of its own (older versions, an agent's header naming its model) has the last one given.
      const last = messages.at(-1)?.at ?? at;
      messages.push({ role: kind, at: time ? isoOf(time) : last, lines: [] });
      continue;
    }
    const current = messages.at(-1);
    if (current) {
      current.lines.push(line);
      continue;
    }
    // Before the first message: the session's provider, id and time.
    const session = SESSION.exec(line);
    if (session) {
      provider = session[1]!;
      id = session[2]!;
      const time = TIME.exec(session[3]!);
      if (time) at = isoOf(time);
    }
    const title = TITLE_TIME.exec(line);
    if (title && !session) at = isoOf(TIME.exec(title[1]!)!);
  }
  if (!messages.some((message) => message.role === 'user')) return null;
  const out: { at: string; line: SpecstoryLine }[] = [{ at, line: { session: { folder, provider, id } } }];
  messages.forEach((message, index) => {
    // A subagent's conversation is not the person's.
    if (message.role === 'sidechain') return;
    const body = withoutSeparator(message.lines);
    if (message.role === 'user') {
      const text = body.join('\n').trim();
      if (text !== '') out.push({ at: message.at, line: { prompt: { text } } });
      return;
    }
    // The command line's exports say when a call failed (`**Error:**`): a call they do not mark ended well, whatever
    // it printed. The extension's say nothing of how a command ended: there what it printed is read.
    for (const line of agentLines(body, index, provider === '')) out.push({ at: message.at, line });
  });
  const bytes = Buffer.from(`${out.map(({ at, line }) => JSON.stringify({ at, ...line })).join('\n')}\n`);
  return { bytes, provider, id };
}

/** A message's lines without the `---` that separates it from the next role, nor the blank lines around it. */
function withoutSeparator(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  if (end > 0 && lines[end - 1]!.trim() === '---') end--;
  return lines.slice(0, end);
}

/**
 * An agent's message as its words and its tool calls, in order: `<tool-use>`, `<details>` and `<think>` blocks are
 * taken out of the words, and so are the segments of an older export that only report a tool's work.
 */
function agentLines(lines: readonly string[], message: number, readsOutput: boolean): SpecstoryLine[] {
  const out: SpecstoryLine[] = [];
  let words: string[] = [];
  const say = () => {
    const text = words.join('\n');
    words = [];
    // The oldest exports put each tool's report between `---` lines, in the agent's words.
    let spoken: string[] = [];
    const speak = () => {
      if (spoken.length > 0) out.push({ reply: { text: spoken.join('\n\n'), message } });
      spoken = [];
    };
    for (const part of text.split(/^-{3,}\s*$/m)) {
      // A call the person stopped is written as a bare "Cancelled": it says nothing of the agent's.
      const segment = part.replace(/^Cancelled\s*$/gm, '').trim();
      if (segment === '') continue;
      if (TOOL_SEGMENT.test(segment)) {
        speak();
        out.push(toolOf(segment, message, readsOutput));
      } else spoken.push(segment);
    }
    speak();
  };
  let block: { close: RegExp; lines: string[]; think: boolean } | null = null;
  for (const line of lines) {
    if (block) {
      block.lines.push(line);
      if (block.close.test(line)) {
        if (!block.think) out.push(toolOf(block.lines.join('\n'), message, readsOutput));
        block = null;
      }
      continue;
    }
    const open = /^\s*<(tool-use|details|think)\b/.exec(line);
    if (open) {
      say();
      const tag = open[1]!;
      const close = new RegExp(`</${tag}>\\s*$`);
      if (close.test(line)) {
        if (tag !== 'think') out.push(toolOf(line, message, readsOutput));
        continue;
      }
      block = { close, lines: [line], think: tag === 'think' };
      continue;
    }
    words.push(line);
  }
  // A block never closed (the export was cut) is kept as the tool's report.
  if (block && !block.think) out.push(toolOf(block.lines.join('\n'), message, readsOutput));
  say();
  return out;
}

/**
 * A tool call from its block or segment: its name, what it was asked (the summary's rest, else its first inline code or
 * fenced block, else its first line), and whether it failed, with what the export shows from the error on.
 */
function toolOf(text: string, message: number, readsOutput: boolean): SpecstoryLine {
  const named = TOOL_NAME.exec(text);
  const name = (named?.[1] ?? named?.[2] ?? firstLine(text, 40).replace(/[:\s].*$/, '')).trim() || 'tool';
  const summary =
    SUMMARY.exec(text)?.[1]
      ?.replace(/Tool use: \*\*[^*]+\*\*\s*(?:•\s*)?/, '')
      .trim() ?? '';
  const plain = text.replace(/<summary>[\s\S]*?<\/summary>/, '').replace(HTML_TAG, '');
  // A fenced block is the command whole: a script or a chain of commands runs over several lines.
  const code = /`([^`\n]+)`/.exec(plain)?.[1] ?? /```[^\n]*\n([\s\S]*?)\n?```/.exec(plain)?.[1];
  const input = clip((summary || code || firstLine(plain, INPUT_CHARS)).trim(), INPUT_CHARS);
  // A summary names the command it ran: `grep -rn "error"` did not fail for saying so.
  const failure = FAILED.exec(
    text.replace(RUN_COMMAND, (_, head: string, command: string) => head + ' '.repeat(command.length)),
  );
  const said = failure
    ? text
        .slice(failure.index + failure[0].length)
        .replace(HTML_TAG, '')
        .replace(/```\w*/g, '')
        .trim()
    : readsOutput && SHELL_TOOL.test(name)
      ? failedOutput(plain)
      : '';
  return {
    tool: { name, input, failed: failure !== null || said !== '', text: clip(said, ERROR_CHARS), message },
  };
}

/** What a shell call printed from the first line that says it failed, or '' when none does. */
function failedOutput(report: string): string {
  const printed = [...report.matchAll(FENCED)].slice(1).map((block) => block[1] ?? '');
  for (const output of printed) {
    const found = FAILED_OUTPUT.exec(output);
    if (!found) continue;
    const from = output.lastIndexOf('\n', found.index) + 1;
    return output.slice(from).trim();
  }
  return '';
}

/** A time as SpecStory writes it (`2025-11-13 21:12:14Z`, `…-0700`, or none), as ISO 8601. */
function isoOf(time: RegExpExecArray): string {
  const [, day, clock, zone] = time;
  const offset = !zone
    ? 'Z'
    : zone === 'Z'
      ? 'Z'
      : zone.includes(':')
        ? zone
        : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const at = new Date(`${day}T${clock!.length === 5 ? `${clock}:00` : clock}${offset}`);
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}

/** The time in an export's file name (`2025-08-06_10-42Z-…`), else ''. */
function timeOfFile(fileName: string): string {
  const match = FILE_TIME.exec(fileName);
  return match ? new Date(`${match[1]}T${match[2]}:${match[3]}:00Z`).toISOString() : '';
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  const at = stringOf(value['at']) ?? '';
  if (isObject(value['session'])) return { turns: folderLink(value['session']['folder'], line, at) };
  if (isObject(value['prompt'])) {
    const text = stringOf(value['prompt']['text'])?.trim() ?? '';
    return { turns: text === '' ? [] : turnsOf({ line, at }, [{ type: 'prompt', text }]) };
  }
  if (isObject(value['reply'])) {
    const text = stringOf(value['reply']['text'])?.trim() ?? '';
    const messageId = `m${String(value['reply']['message'])}`;
    return { turns: text === '' ? [] : turnsOf({ line, at }, [{ type: 'reply', text, messageId }]) };
  }
  if (isObject(value['tool'])) {
    const tool = value['tool'];
    const callId = `${line}`;
    const name = stringOf(tool['name']) ?? 'tool';
    const input = stringOf(tool['input']) ?? '';
    const bodies: TurnBody[] = [
      {
        type: 'call',
        callId,
        tool: name,
        description: clip(firstLine(input, 200) || name, 200),
        input,
        messageId: `m${String(tool['message'])}`,
      },
    ];
    // An export says when a call failed (`**Error:**`), or a shell call's output does (`toolOf`).
    if (tool['failed'] === true)
      bodies.push({ type: 'result', callId, status: 'failed', text: stringOf(tool['text']) ?? '' });
    return { turns: turnsOf({ line, at }, bodies) };
  }
  return { turns: [], warning: 'neither a session, a prompt, a reply nor a tool call' };
}

/** An export's path → `specstory-<12 hex of the path's SHA-256>`: one session a file. */
function sessionOf(path: string): string {
  return `specstory-${createHash('sha256').update(path).digest('hex').slice(0, 12)}`;
}

export const specstoryReader: Reader = { agent: 'specstory', sessionOf, parseLine };
