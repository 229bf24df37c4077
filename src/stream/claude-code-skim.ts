/**
 * The Claude Code reader's fast path: a line's turns from its raw bytes, with the tool output it does not read left
 * undecoded (see `skim.ts`).
 */
import { decodeHead, type LongString, skimJson } from './skim.ts';
import { isObject, type JsonObject, RESULT_HEAD_CHARS, SHORT_HEAD_CHARS, settlesResult } from './text.ts';
import type { LineResult, Reader } from './types.ts';

/** Strings of at least this many bytes are left undecoded when a line is skimmed. */
const LONG_BYTES = 1024;

/** Content block types the reader reads; what any other block holds is never looked at. */
const READ_BLOCKS = new Set(['text', 'tool_use', 'server_tool_use', 'tool_result']);

/**
 * What the reader makes of the string at `path` of a line: never read (inside `toolUseResult`, or inside a content
 * block of a type it skips), read as a tool result's text (only its head, if the call succeeded), or read whole.
 */
function readingOf(record: unknown, path: LongString['path']): 'unread' | 'result' | 'whole' {
  if (!isObject(record) || record['isCompactSummary'] === true) return 'whole';
  if (path[0] === 'toolUseResult') return path.length === 1 ? 'result' : 'unread';
  const [key, field, index, inner] = path;
  if (key !== 'message' || field !== 'content' || typeof index !== 'number') return 'whole';
  const block = ((record['message'] as JsonObject)['content'] as JsonObject[])[index]!;
  if (block['type'] === 'tool_result') return path.length === 4 && inner === 'content' ? 'result' : 'whole';
  return READ_BLOCKS.has(block['type'] as string) ? 'whole' : 'unread';
}

/**
 * The turns of one line from its raw bytes, leaving its long strings undecoded where the reader does not need
 * them whole; undefined when the line must be parsed whole (not JSON, a long string read whole, or a tool result
 * that was refused or failed). Gives exactly what `parseLine` gives on the whole line: most bytes of a transcript
 * are the output of calls that succeeded, of which a turn keeps only the head.
 */
export function skimClaudeCodeLine(
  bytes: Buffer,
  start: number,
  end: number,
  line: number,
  parseLine: Reader['parseLine'],
): LineResult | undefined {
  if (end - start < LONG_BYTES) return undefined;
  const skimmed = skimJson(bytes, start, end, {
    longBytes: LONG_BYTES,
    accept: (record, path) => readingOf(record, path) !== 'whole',
  });
  if (skimmed === undefined) return undefined;
  const record = skimmed.value as JsonObject;
  for (const long of skimmed.long) {
    if (readingOf(record, long.path) !== 'result') continue;
    let head = decodeHead(bytes, long, SHORT_HEAD_CHARS);
    if (head.length === SHORT_HEAD_CHARS && !settlesResult(head))
      head = decodeHead(bytes, long, RESULT_HEAD_CHARS);
    const parent = long.path.slice(0, -1).reduce<JsonObject>((node, key) => node[key] as JsonObject, record);
    parent[long.path.at(-1)!] = head;
  }
  const result = parseLine(record, line);
  const whole = result.turns.some((turn) => turn.type === 'result' && turn.status !== 'ok');
  return whole ? undefined : result;
}
