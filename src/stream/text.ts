import type { Turn, TurnBase, TurnBody } from './types.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a non-empty string. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** At most `max` characters, cut on a character boundary and marked with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  // Only the head is split into characters: tool outputs can be megabytes long.
  const chars = Array.from(text.slice(0, max * 2));
  return chars.length <= max && text.length <= max * 2 ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The first line of a text, trimmed and clipped. */
export function firstLine(text: string, max: number): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return clip(line.trim(), max);
}

export const SUCCESS_HEAD_CHARS = 200;
export const ERROR_CHARS = 900;
export const ERROR_LINES = 10;
export const INPUT_CHARS = 300;

const EXIT_HEADER = /^(?:Error: )?Exit code:? (-?\d+)\s*$/;

// The failure excerpt follows the labelled data's convention (data/README.md, `error_first_lines`).
const ERROR_LINE =
  /error|fail|fatal|exception|traceback|panic|not found|no such|cannot|can't|could not|couldn't|unable to|denied|refused|invalid|unknown|unrecognized|unexpected|missing|timed? ?out|abort|segmentation fault|usage:|password|ENOENT|EACCES|EPERM|ECONNREFUSED|EADDRINUSE|\bERR!/i;

/** The exit code from a leading `Exit code N` line (Claude Code's Bash tool). */
export function leadingExitCode(text: string): number | undefined {
  const first = text.trimStart().split('\n', 1)[0] ?? '';
  const match = EXIT_HEADER.exec(first.trim());
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
  return clip(text.trim(), SUCCESS_HEAD_CHARS);
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

/** Turns from one line's bodies, numbered in order. */
export function turnsOf(stamp: Omit<TurnBase, 'part'>, bodies: readonly TurnBody[]): Turn[] {
  return bodies.map((body, part) => ({ ...stamp, part, ...body }));
}
