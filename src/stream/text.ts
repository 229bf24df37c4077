import type { Turn, TurnBase, TurnBody } from './types.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON a text holds, else the text as it was; a value that is not a string, as it is. */
export function parsedOr(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The value when it is a non-empty string. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const SURROGATE = /[\ud800-\udfff]/;

/** At most `max` characters, cut on a character boundary and marked with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  // Only the head is split into characters: tool outputs can be megabytes long.
  const head = text.slice(0, max * 2);
  // Without surrogates every code unit is a character, and the head is longer than `max`.
  if (!SURROGATE.test(head)) return `${head.slice(0, max - 1)}…`;
  const chars = Array.from(head);
  return chars.length <= max && text.length <= max * 2 ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const DESCRIBED_BY: readonly string[] = ['description'];

/**
 * What a call says it does: the description its input gives (`keys`, in turn), else `otherwise` (what the agent
 * showed for the call), else the first line of the input's summary; at most 200 characters.
 */
export function describeCall(
  input: unknown,
  summary: string,
  { keys = DESCRIBED_BY, otherwise }: { keys?: readonly string[]; otherwise?: string | undefined } = {},
): string {
  let given: string | undefined;
  if (isObject(input)) for (const key of keys) given ??= stringOf(input[key]);
  return clip(given ?? otherwise ?? firstLine(summary, 120), 200);
}

/** The first line of a text, trimmed and clipped. */
export function firstLine(text: string, max: number): string {
  return clip(headLine(text.trimStart()).trim(), max);
}

/** The text up to its first newline, without scanning the rest: tool outputs can be megabytes long. */
function headLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : text.slice(0, end);
}

export const SUCCESS_HEAD_CHARS = 200;
export const ERROR_CHARS = 900;
export const ERROR_LINES = 10;
export const INPUT_CHARS = 300;

const EXIT_HEADER = /^(?:Error: )?Exit code:? (-?\d+)\s*$/;

// The failure excerpt follows the labelled data's convention (data/README.md, `error_first_lines`).
const ERROR_LINE =
  /error|fail|fatal|exception|traceback|panic|not found|no such|cannot|can't|could not|couldn't|unable to|denied|refused|invalid|unknown|unrecognized|unexpected|missing|timed? ?out|abort|segmentation fault|usage:|password|ENOENT|EACCES|EPERM|ECONNREFUSED|EADDRINUSE|\bERR!/i;

/**
 * How much of a tool result's text its turn reads when the call succeeded: the head kept, the refusal openings, and a
 * leading exit code (looked for past at most half this much leading space, in a first line cut at the other half).
 * Given only this much of such a text, a reader makes the same turn; skimming a line relies on it.
 */
export const RESULT_HEAD_CHARS = 8192;
const EXIT_WINDOW = RESULT_HEAD_CHARS / 2;

/** How much of a result's text the refusal openings are looked for in. */
export const REFUSAL_OPENING_CHARS = 512;

/** A shorter head of a result's text, read first: it settles most successful results (see `settlesResult`). */
export const SHORT_HEAD_CHARS = Math.max(1024, SUCCESS_HEAD_CHARS * 4, REFUSAL_OPENING_CHARS);

/**
 * Whether a successful result's turn reads nothing of its text past `head`, its first `SHORT_HEAD_CHARS` characters.
 * The turn reads the first `SUCCESS_HEAD_CHARS * 4` and `REFUSAL_OPENING_CHARS` characters, both within the head;
 * whether the text is blank (then another field stands in for it), which a character that is not settles; whether it
 * is a bare interrupt marker, which a text longer than the marker is not; and a leading exit code from the first line
 * that is not blank, which that line's end within the head settles.
 */
export function settlesResult(head: string): boolean {
  const start = head.search(/\S/);
  return start !== -1 && head.indexOf('\n', start) !== -1;
}

/** The exit code from a leading `Exit code N` line (Claude Code's Bash tool). */
export function leadingExitCode(text: string): number | undefined {
  let start = 0;
  while (start < text.length && start < EXIT_WINDOW && /\s/.test(text[start]!)) start++;
  const match = EXIT_HEADER.exec(headLine(text.slice(start, start + EXIT_WINDOW)).trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * What a failure said: from the first line that looks like an error, at most ten lines and
 * 900 characters. A leading exit-code header is left out; the code is kept apart.
 */
export function errorExcerpt(text: string): string {
  const unwrapped = text.replace(/^\s*<tool_use_error>([\s\S]*?)<\/tool_use_error>\s*$/, '$1');
  const lines = unwrapped.split(/\r?\n/);
  const informative = (line: string) => line.trim() !== '' && !EXIT_HEADER.test(line.trim());
  let start = lines.findIndex((line) => informative(line) && ERROR_LINE.test(line));
  if (start < 0) start = lines.findIndex(informative);
  if (start < 0) return '';
  return clip(
    lines
      .slice(start, start + ERROR_LINES)
      .join('\n')
      .trimEnd(),
    ERROR_CHARS,
  );
}

/** The short head kept of a successful result. */
export function successHead(text: string): string {
  return clip(text.slice(0, SUCCESS_HEAD_CHARS * 4).trim(), SUCCESS_HEAD_CHARS);
}

const INPUT_KEYS = [
  'command',
  'cmd',
  'pattern',
  'file_path',
  'notebook_path',
  'url',
  'query',
  'path',
  // Continue's tools name their file or folder so.
  'filepath',
  'dirPath',
  'prompt',
];

/** A short, readable summary of a tool's input: the field that says what the call does, else its JSON. */
export function summarizeInput(input: unknown): string {
  if (typeof input === 'string') return clip(input.trim(), INPUT_CHARS);
  if (!isObject(input)) return input === undefined ? '' : clip(JSON.stringify(input) ?? '', INPUT_CHARS);
  const parts: string[] = [];
  for (const key of INPUT_KEYS) {
    const value = input[key];
    const words =
      Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(' ') : value;
    if (typeof words === 'string' && words !== '') parts.push(words);
    if (parts.length === 2) break;
  }
  return clip(parts.length > 0 ? parts.join(' · ') : JSON.stringify(input), INPUT_CHARS);
}

/**
 * The turn of a line Remem wrote to say which folder a session ran in: a link carrying it as the session's working
 * folder, or nothing when the line names none.
 */
export function folderLink(folder: unknown, line: number, at: string): Turn[] {
  const cwd = stringOf(folder);
  return cwd ? turnsOf({ line, at, cwd }, [{ type: 'link' }]) : [];
}

/** Turns from one line's bodies, numbered in order. */
export function turnsOf(stamp: Omit<TurnBase, 'part'>, bodies: readonly TurnBody[]): Turn[] {
  // Object.assign, not spread: bodies come in many shapes, and V8 spreads those on a slow path.
  return bodies.map((body, part) => Object.assign({}, stamp, { part }, body));
}

/**
 * How much of one text the lines Remem writes of an agent store's rows keep (Cursor, Copilot Chat): far more than any
 * turn reads of it, far less than the file contents a tool's result can hold. The error excerpt of a failure whose
 * first error line lies further in is not found.
 */
export const KEPT_TEXT_CHARS = 64 * 1024;

/** A text cut to `KEPT_TEXT_CHARS`. */
export function keptText(text: string): string {
  return text.length <= KEPT_TEXT_CHARS ? text : text.slice(0, KEPT_TEXT_CHARS);
}

/** How much of each text within a long tool input is kept: more than any turn reads of it (`INPUT_CHARS`). */
const KEPT_INPUT_TEXT_CHARS = 1000;

function clippedStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.slice(0, KEPT_INPUT_TEXT_CHARS);
  if (Array.isArray(value)) return value.map(clippedStrings);
  if (!isObject(value)) return value;
  const kept: JsonObject = {};
  for (const [key, item] of Object.entries(value)) kept[key] = clippedStrings(item);
  return kept;
}

/**
 * A tool's input, whole when it is short; else with each text in it cut to its head. What a turn reads of an input
 * (`summarizeInput`, a call's description) is its head, and each head is kept, so its turns are the same.
 */
export function keptInput(input: unknown): unknown {
  if (typeof input === 'string') return keptText(input);
  const json = JSON.stringify(input ?? null) ?? 'null';
  return json.length <= KEPT_TEXT_CHARS ? input : clippedStrings(input);
}
