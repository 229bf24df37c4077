import {
  describeCall,
  errorExcerpt,
  isObject,
  type JsonObject,
  stringOf,
  successHead,
  summarizeInput,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBase, TurnBody } from './types.ts';

/**
 * Gemini CLI sessions (`~/.gemini/tmp/<project hash>/chats/session-<time>-<id8>.jsonl`), one record a line
 * (docs/formats/gemini-cli.md): a first line of metadata, then whole messages; a message written again under
 * the same `id` replaces the earlier copy where it stood, `{"$rewindTo": id}` drops that message and every
 * later one, and `{"$set": {…}}` updates the metadata.
 */

/** The text of a `PartListUnion`: a string, one part, or an array of parts (or strings). */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => (typeof part === 'string' ? part : isObject(part) ? (stringOf(part['text']) ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The function responses in a tool call's `result`, in order. */
function functionResponses(result: unknown): JsonObject[] {
  const parts = Array.isArray(result) ? result : [result];
  return parts
    .map((part) => (isObject(part) && isObject(part['functionResponse']) ? part['functionResponse'] : null))
    .filter((response): response is JsonObject => response !== null);
}

function resultBody(call: JsonObject, callId: string): TurnBody | null {
  const status = stringOf(call['status']);
  if (status !== 'success' && status !== 'error' && status !== 'cancelled') return null;
  const responses = functionResponses(call['result']).map((response) =>
    isObject(response['response']) ? response['response'] : {},
  );
  const error = responses.map((response) => stringOf(response['error'])).find((text) => text !== undefined);
  const output = responses
    .map((response) => stringOf(response['output']) ?? '')
    .filter((text) => text !== '')
    .join('\n');
  const display = stringOf(call['resultDisplay']) ?? '';
  // Cancelled: the person denied the call, or stopped it while it ran. The reason is the CLI's own words
  // ("User denied execution."), never the person's, so it is not kept as theirs.
  if (status === 'cancelled')
    return { type: 'result', callId, status: 'refused', text: successHead(error ?? display) };
  if (status === 'error')
    return { type: 'result', callId, status: 'failed', text: errorExcerpt(error ?? display) };
  return { type: 'result', callId, status: 'ok', text: successHead(output || display) };
}

/** A tool call and, once it ended, its result: the call's `status` says how it ended. */
function toolCallBodies(call: unknown, messageId: string): TurnBody[] {
  if (!isObject(call)) return [];
  const callId = stringOf(call['id']) ?? '';
  const tool = stringOf(call['name']) ?? '';
  const args = call['args'];
  const input = summarizeInput(args);
  const bodies: TurnBody[] = [
    { type: 'call', callId, tool, description: describeCall(args, input), input, messageId },
  ];
  const result = resultBody(call, callId);
  if (result) bodies.push(result);
  return bodies;
}

function messageBodies(record: JsonObject): TurnBody[] {
  const id = stringOf(record['id']) ?? '';
  switch (record['type']) {
    case 'user': {
      // `displayContent`: what the person typed, where `content` holds what was sent with it (files read in).
      const text = partsText(record['displayContent'] ?? record['content']).trim();
      return text === '' ? [] : [{ type: 'prompt', text }];
    }
    case 'gemini': {
      const text = partsText(record['content']).trim();
      const calls = Array.isArray(record['toolCalls']) ? record['toolCalls'] : [];
      return [
        ...(text === '' ? [] : [{ type: 'reply' as const, text, messageId: id }]),
        ...calls.flatMap((call) => toolCallBodies(call, id)),
      ];
    }
    default:
      // info, warning and error messages are the CLI's own notices.
      return [{ type: 'link' }];
  }
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  const rewindTo = stringOf(value['$rewindTo']);
  if (rewindTo !== undefined) return { turns: turnsOf({ line, at: '', rewindTo }, [{ type: 'link' }]) };
  if (isObject(value['$set'])) return { turns: [] };
  const id = stringOf(value['id']);
  if (id !== undefined) {
    if (typeof value['type'] !== 'string') return { turns: [], warning: 'message without a type' };
    const stamp: Omit<TurnBase, 'part'> = { line, at: stringOf(value['timestamp']) ?? '', record: id };
    return { turns: turnsOf(stamp, messageBodies(value)) };
  }
  // The first line: the session's metadata.
  if (typeof value['sessionId'] === 'string' && typeof value['projectHash'] === 'string')
    return { turns: [] };
  return { turns: [], warning: 'neither a message, a rewind nor session metadata' };
}

/** `session-<time>-<id8>.jsonl` → `<time>-<id8>`; a name of another shape is kept whole. */
function sessionOf(path: string): string {
  const name = path.split(/[\\/]/).at(-1) ?? '';
  return name.replace(/^session-/, '').replace(/\.jsonl$/, '');
}

/** The first line of a session: its metadata. */
function recognizes(record: Record<string, unknown>): boolean {
  return typeof record['sessionId'] === 'string' && typeof record['projectHash'] === 'string';
}

export const geminiCliReader: Reader = { agent: 'gemini-cli', sessionOf, parseLine, recognizes };
