/** Turns and events from the lines of what was read: each line skimmed or parsed, a bad one a warning. */

import { defaultParams } from '../core/index.ts';
import {
  aiderReader,
  assemble,
  claudeCodeReader,
  clineReader,
  codexReader,
  continueReader,
  copilotChatReader,
  cursorReader,
  forEachLine,
  forEachLineRange,
  geminiCliReader,
  type LineResult,
  type LongLines,
  opencodeReader,
  parseEventLine,
  proxyLogReader,
  type Reader,
  specstoryReader,
  type Turn,
} from '../stream/index.ts';
import { type Derived, deriveEpisodes } from './derive.ts';
import { eventToEpisode } from './events.ts';
import type { IngestWarning, Source, SourceAgent } from './source.ts';

/** The reader of each transcript format. */
export const readers: Record<Exclude<SourceAgent, 'events'>, Reader> = {
  aider: aiderReader,
  'claude-code': claudeCodeReader,
  cline: clineReader,
  codex: codexReader,
  continue: continueReader,
  cursor: cursorReader,
  'copilot-chat': copilotChatReader,
  'gemini-cli': geminiCliReader,
  opencode: opencodeReader,
  proxy: proxyLogReader,
  specstory: specstoryReader,
};

/** The session a source belongs to (all events are one session). */
export function sessionOf(source: Pick<Source, 'path' | 'agent'>): string {
  if (source.agent === 'events') return 'events';
  return readers[source.agent].sessionOf(source.path);
}

export interface Parsed {
  turns: Turn[];
  events: ReturnType<typeof eventToEpisode>[];
}

/**
 * What the lines of `bytes` from `from` hold, numbered after `firstLine`: turns, or for an event file events. A line
 * the reader can take from its bytes is not decoded whole; one that cannot be read is a warning naming file and line.
 */
export function parseBytes(
  source: Source,
  bytes: Buffer,
  from: number,
  firstLine: number,
  now: string,
  warn: (w: IngestWarning) => void,
): Parsed {
  const parsed: Parsed = { turns: [], events: [] };
  const long = longLines(source.path, warn);
  if (source.agent === 'events') {
    forEachLine(
      bytes,
      from,
      firstLine,
      (line, text) => {
        const result = parseEventLine(text, line);
        if ('error' in result) warn({ file: source.path, line, reason: result.error });
        else parsed.events.push(eventToEpisode(result.event, now, { file: source.path, line }));
      },
      long,
    );
    return parsed;
  }
  const reader = readers[source.agent];
  forEachLineRange(
    bytes,
    from,
    firstLine,
    (line, start, end) => {
      const result =
        reader.skimLine?.(bytes, start, end, line) ??
        parseWhole(reader, bytes.toString('utf8', start, end), line);
      if ('bad' in result) warn({ file: source.path, line, reason: `not JSON (${describeBad(result.bad)})` });
      else {
        if (result.warning) warn({ file: source.path, line, reason: result.warning });
        for (const turn of result.turns) parsed.turns.push(turn);
      }
    },
    long,
  );
  return parsed;
}

/** Lines past the limit are skipped unread, each a warning naming file, line and size. */
export function longLines(file: string, warn: (w: IngestWarning) => void): LongLines {
  const maxBytes = defaultParams.stream.maxLineBytes;
  return {
    maxBytes,
    skip: (line, bytes) =>
      warn({ file, line, reason: `line of ${bytes} bytes skipped: over the ${maxBytes}-byte line limit` }),
  };
}

/** One line decoded and parsed whole; `bad` holds the text when it is not JSON. */
function parseWhole(reader: Reader, text: string, line: number): LineResult | { bad: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { bad: text };
  }
  return reader.parseLine(value, line);
}

/** A transcript's turns as read and as the store keeps them, with the warnings its lines gave. */
export interface ParsedTurns {
  /** The turns as one JSON array, or '' when there are none. */
  json: string;
  /** The line of the first turn (0 when there are none). */
  firstLine: number;
  /** The turns themselves, when they were parsed on this thread. */
  turns?: Turn[];
  /** The session's episodes, when the file holds the whole session and they were derived with its parsing. */
  derived?: Derived;
  warnings: IngestWarning[];
}

/** `parseBytes` for a transcript, its turns written as the store keeps them; `keep`: return the turns as well. */
export function parseTurns(
  source: Source,
  bytes: Buffer,
  from: number,
  firstLine: number,
  keep: boolean,
): ParsedTurns {
  const warnings: IngestWarning[] = [];
  // The clock stamps events only, and a transcript holds none.
  const { turns } = parseBytes(source, bytes, from, firstLine, '', (warning) => warnings.push(warning));
  const first = turns[0];
  const json = first === undefined ? '' : JSON.stringify(turns);
  return { json, firstLine: first?.line ?? 0, warnings, ...(keep ? { turns } : {}) };
}

/**
 * `parseTurns`, and the episodes of `session` derived from those turns: for a file read whole that is its session's
 * only file, so the thread that parsed it derives it too, as `deriveSession` would from the stored turns.
 */
export function parseAndDerive(
  source: Source,
  bytes: Buffer,
  from: number,
  firstLine: number,
  session: string,
): ParsedTurns {
  const { turns = [], ...parsed } = parseTurns(source, bytes, from, firstLine, true);
  // Every turn is of this one file, which derivation takes as the file of a turn that names none: the turns are
  // not each given it (a property added to tens of thousands of objects of many shapes).
  return { ...parsed, derived: deriveEpisodes(assemble(source.agent, session, turns), source.path) };
}

function describeBad(text: string): string {
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text.slice(0, 200))) return 'binary data';
  if (text.length > 1_000_000) return `${text.length} characters`;
  return `starts ${JSON.stringify(text.slice(0, 40))}`;
}
