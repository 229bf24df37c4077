import {
  describeCall,
  errorExcerpt,
  folderLink,
  isObject,
  type JsonObject,
  keptInput,
  keptText,
  parsedOr,
  stringOf,
  successHead,
  summarizeInput,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBody } from './types.ts';

/**
 * Continue's chat sessions (docs/formats/continue.md): one JSON file a session under `~/.continue/sessions/`
 * (`CONTINUE_GLOBAL_DIR` moves the folder), `{sessionId, title, workspaceDirectory, history}`, each history item a
 * message — `{role, content}`, the content a string or a list of parts — with what was sent beside it. The file is
 * written again whole as the chat goes on. Remem reads the session as lines it writes, a first one naming the folder,
 * one a message and one each tool call the message made, which are what is archived under `raw/` and parsed here.
 */

/** The text of a message's content: a string, or the text parts of a list. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && part['type'] === 'text' ? (stringOf(part['text']) ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** A workspace as Continue names it: a path, or a `file://` URI in later versions. */
function folderOf(workspace: unknown): string | null {
  const named = stringOf(workspace);
  if (named === undefined) return null;
  if (!named.startsWith('file://')) return named;
  try {
    return decodeURIComponent(new URL(named).pathname);
  } catch {
    return null;
  }
}

/**
 * The tool calls of a history item: `toolCallStates` (a list, in later versions) or `toolCallState` (one, before),
 * each `{toolCallId, toolCall: {function: {name, arguments}}, status, parsedArgs, output}`.
 */
function toolCallStates(item: JsonObject): JsonObject[] {
  const many = item['toolCallStates'];
  const states = Array.isArray(many) ? many : [item['toolCallState']];
  return states.filter(isObject);
}

/** The line Remem writes of one tool call: its id, tool, input, how it ended, and what it gave back. */
function callLine(state: JsonObject, at: string): unknown {
  const call = isObject(state['toolCall']) ? state['toolCall'] : {};
  const fn = isObject(call['function']) ? call['function'] : {};
  const input = isObject(state['parsedArgs'])
    ? state['parsedArgs']
    : parsedOr(stringOf(fn['arguments']) ?? '');
  const output = Array.isArray(state['output'])
    ? state['output']
        .map((item) => (isObject(item) ? (stringOf(item['content']) ?? '') : ''))
        .filter((text) => text !== '')
        .join('\n')
    : '';
  return {
    at,
    call: {
      id: stringOf(state['toolCallId']) ?? stringOf(call['id']) ?? null,
      tool: stringOf(fn['name']) ?? null,
      input: keptInput(input),
      status: stringOf(state['status']) ?? null,
      output: keptText(output),
    },
  };
}

/**
 * The lines Remem writes of a Continue session, every message given the session's time `at` (the files keep no time
 * of a message); null when the text is not a session (no history array).
 */
export function continueSessionLines(json: string, at: string): Buffer | null {
  let session: unknown;
  try {
    session = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isObject(session) || !Array.isArray(session['history'])) return null;
  const lines: unknown[] = [{ at, session: { folder: folderOf(session['workspaceDirectory']) } }];
  for (const item of session['history']) {
    const message = isObject(item) ? item['message'] : undefined;
    if (!isObject(item) || !isObject(message)) {
      lines.push({ at, message: null });
      continue;
    }
    lines.push({ at, message: { role: message['role'], text: keptText(contentText(message['content'])) } });
    for (const state of toolCallStates(item)) lines.push(callLine(state, at));
  }
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

/** Continue's own words around a failed call's message, left out of what the failure said. */
const FAILED_WITH = /^[\w.-]+ failed with the message:\s*/;
const TRY_ELSE = /\s*Please try something else or request further instructions\.\s*$/;

/**
 * A tool call and, once it ended, how: `errored` a failure (Continue's "Tool Call Error" item says why), `canceled`
 * the person turned it down, `done` a result. A call still being made or waiting for approval has no result yet.
 */
function callBodies(call: JsonObject, line: number): TurnBody[] {
  const callId = stringOf(call['id']) ?? `${line}`;
  const tool = stringOf(call['tool']) ?? 'tool';
  const args = call['input'];
  const input = summarizeInput(args);
  const output = stringOf(call['output']) ?? '';
  const bodies: TurnBody[] = [{ type: 'call', callId, tool, description: describeCall(args, input), input }];
  switch (call['status']) {
    case 'errored':
      bodies.push({
        type: 'result',
        callId,
        status: 'failed',
        text: errorExcerpt(output.replace(FAILED_WITH, '').replace(TRY_ELSE, '')),
      });
      break;
    case 'canceled':
      bodies.push({ type: 'result', callId, status: 'refused', text: successHead(output) });
      break;
    case 'done':
      bodies.push({ type: 'result', callId, status: 'ok', text: successHead(output) });
      break;
    default:
      break;
  }
  return bodies;
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  const at = stringOf(value['at']) ?? '';
  if (isObject(value['session'])) return { turns: folderLink(value['session']['folder'], line, at) };
  if (isObject(value['call'])) return { turns: turnsOf({ line, at }, callBodies(value['call'], line)) };
  const message = value['message'];
  if (!isObject(message)) return { turns: [], warning: 'a history item without a message' };
  const text = (stringOf(message['text']) ?? '').trim();
  if (text === '') return { turns: [] };
  switch (message['role']) {
    case 'user':
      return { turns: turnsOf({ line, at }, [{ type: 'prompt', text }]) };
    case 'assistant':
      return { turns: turnsOf({ line, at }, [{ type: 'reply', text, messageId: `${line}` }]) };
    default:
      // The system prompt, a tool's output, the model's thinking: not the conversation's words.
      return { turns: [] };
  }
}

/** `…/sessions/<session id>.json` → the session id. */
function sessionOf(path: string): string {
  const name = path.split(/[\\/]/).at(-1) ?? path;
  return name.replace(/\.json$/, '');
}

export const continueReader: Reader = { agent: 'continue', sessionOf, parseLine };
