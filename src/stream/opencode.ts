import {
  describeCall,
  errorExcerpt,
  isObject,
  type JsonObject,
  parsedOr,
  stringOf,
  successHead,
  summarizeInput,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBase, TurnBody } from './types.ts';

/**
 * OpenCode sessions (docs/formats/opencode.md). OpenCode keeps them in a SQLite store, not a transcript: each
 * session is read as lines Remem writes from its rows — the session, then each message followed by its parts —
 * and those lines are what is archived under `raw/` and parsed here. The source's path is `<store>#<session id>`.
 */

/** What a session's rows become: one JSON line each. */
export interface OpencodeRows {
  id: string;
  directory: string;
  parentId: string | null;
  title: string;
  messages: { id: string; timeCreated: number; data: string; parts: { id: string; data: string }[] }[];
}

/** The lines of one session, in the order OpenCode shows them. */
export function opencodeSessionLines(rows: OpencodeRows): Buffer {
  const lines = [
    JSON.stringify({
      session: { id: rows.id, directory: rows.directory, parentId: rows.parentId, title: rows.title },
    }),
  ];
  for (const message of rows.messages) {
    const data = parsedOr(message.data);
    lines.push(JSON.stringify({ message: { id: message.id, timeCreated: message.timeCreated, data } }));
    const role = isObject(data) ? stringOf(data['role']) : undefined;
    for (const part of message.parts) {
      lines.push(
        JSON.stringify({
          part: {
            id: part.id,
            messageId: message.id,
            role: role ?? null,
            timeCreated: message.timeCreated,
            data: parsedOr(part.data),
          },
        }),
      );
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const REJECTED = 'The user rejected permission to use this specific tool call';
const FEEDBACK =
  /^The user rejected permission to use this specific tool call with the following feedback: ([\s\S]*)$/;

function toolBodies(part: JsonObject, messageId: string): TurnBody[] {
  const callId = stringOf(part['callID']) ?? stringOf(part['id']) ?? '';
  const tool = stringOf(part['tool']) ?? '';
  const state = isObject(part['state']) ? part['state'] : {};
  const input = summarizeInput(state['input']);
  const args = state['input'];
  const bodies: TurnBody[] = [
    { type: 'call', callId, tool, description: describeCall(args, input), input, messageId },
  ];
  if (state['status'] === 'completed') {
    bodies.push({ type: 'result', callId, status: 'ok', text: successHead(stringOf(state['output']) ?? '') });
  } else if (state['status'] === 'error') {
    const error = stringOf(state['error']) ?? '';
    if (error.startsWith(REJECTED)) {
      const reason = FEEDBACK.exec(error)?.[1]?.trim();
      bodies.push({
        type: 'result',
        callId,
        status: 'refused',
        text: successHead(error),
        ...(reason ? { reason } : {}),
      });
    } else bodies.push({ type: 'result', callId, status: 'failed', text: errorExcerpt(error) });
  }
  return bodies;
}

function partBodies(part: JsonObject, role: string | undefined, messageId: string): TurnBody[] {
  const data = isObject(part['data']) ? part['data'] : null;
  if (data === null) return [];
  if (data['type'] === 'text') {
    // Synthetic text is OpenCode's own (files read in, reminders), never the person's or the model's words.
    if (data['synthetic'] === true || data['ignored'] === true) return [];
    const text = stringOf(data['text'])?.trim() ?? '';
    if (text === '') return [];
    if (role === 'user') return [{ type: 'prompt', text }];
    if (role === 'assistant') return [{ type: 'reply', text, messageId }];
    return [];
  }
  if (data['type'] === 'tool' && role === 'assistant') return toolBodies(data, messageId);
  return [];
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  if (isObject(value['session'])) {
    const cwd = stringOf(value['session']['directory']);
    return { turns: cwd ? turnsOf({ line, at: '', cwd }, [{ type: 'link' }]) : [] };
  }
  if (isObject(value['message'])) {
    const message = value['message'];
    const data = message['data'];
    if (!isObject(data)) return { turns: [], warning: 'message row whose data is not a JSON object' };
    const at = isoOf(message['timeCreated']);
    // An answer the person stopped: OpenCode records the abort as the message's error.
    const error = isObject(data['error']) ? stringOf(data['error']['name']) : undefined;
    if (data['role'] === 'assistant' && error === 'MessageAbortedError') {
      return { turns: turnsOf({ line, at }, [{ type: 'interrupt', duringTool: false }]) };
    }
    return { turns: [] };
  }
  if (isObject(value['part'])) {
    const part = value['part'];
    if (!isObject(part['data'])) return { turns: [], warning: 'part row whose data is not a JSON object' };
    const stamp: Omit<TurnBase, 'part'> = { line, at: isoOf(part['timeCreated']) };
    const messageId = stringOf(part['messageId']) ?? '';
    return { turns: turnsOf(stamp, partBodies(part, stringOf(part['role']), messageId)) };
  }
  return { turns: [], warning: 'neither a session, a message nor a part row' };
}

function isoOf(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}

/** `<store>#<session id>` → the session id. */
function sessionOf(path: string): string {
  const at = path.lastIndexOf('#');
  return at === -1 ? path : path.slice(at + 1);
}

export const opencodeReader: Reader = { agent: 'opencode', sessionOf, parseLine };
