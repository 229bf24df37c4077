import { append } from '../core/index.ts';
import {
  describeCall,
  errorExcerpt,
  isObject,
  type JsonObject,
  KEPT_TEXT_CHARS,
  keptInput,
  keptText,
  parsedOr,
  stringOf,
  successHead,
  summarizeInput,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBase, TurnBody } from './types.ts';

/**
 * GitHub Copilot Chat sessions in VS Code (docs/formats/copilot-chat.md). VS Code keeps each chat as one file under
 * `workspaceStorage/<hash>/chatSessions/`: a whole JSON document (`<id>.json`, older versions), or a log of changes
 * to one (`<id>.jsonl`: the first line the whole session, each later line a change at a path within it). Remem
 * rebuilds the session as it stands and reads it as lines it writes — the session, then each request's prompt,
 * each part of its response, and how it ended — which are what is archived under `raw/` and parsed here.
 */

/** `ObjectMutationLog`'s entry kinds (VS Code, `objectMutationLog.ts`). */
const INITIAL = 0;
const SET = 1;
const PUSH = 2;
const DELETE = 3;

/** `ResponseModelState` (VS Code, `chatService.ts`): the answer was stopped by the person. */
const CANCELLED = 2;
/** `ToolConfirmKind.Denied`: the person did not allow the call. */
const DENIED = 0;

type Path = (string | number)[];

/** The container a path's last key is in, or null when the path leads nowhere. */
function parentOf(state: unknown, path: Path): Record<string | number, unknown> | null {
  let current: unknown = state;
  for (const key of path.slice(0, -1)) {
    if (typeof current !== 'object' || current === null) return null;
    current = (current as Record<string | number, unknown>)[key];
  }
  return typeof current === 'object' && current !== null
    ? (current as Record<string | number, unknown>)
    : null;
}

/** Keys a change may never follow: they lead out of the session, into what every object shares. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function isPath(value: unknown): value is Path {
  return (
    Array.isArray(value) &&
    value.every((key) => (typeof key === 'string' && !UNSAFE_KEYS.has(key)) || typeof key === 'number')
  );
}

/** One change of the log applied to the session; a reason when it cannot be. */
function applyEntry(state: unknown, entry: JsonObject): string | null {
  const path = entry['k'];
  if (!isPath(path) || path.length === 0) return 'a change without a path it may follow';
  const parent = parentOf(state, path);
  if (parent === null) return `a change at ${path.join('.')}, which is not in the session`;
  const key = path[path.length - 1] as string | number;
  if (entry['kind'] === SET) parent[key] = entry['v'];
  else if (entry['kind'] === DELETE) delete parent[key];
  else {
    const list = Array.isArray(parent[key]) ? (parent[key] as unknown[]) : [];
    if (typeof entry['i'] === 'number') list.length = Math.min(list.length, entry['i']);
    if (Array.isArray(entry['v'])) append(list, entry['v'] as unknown[]);
    parent[key] = list;
  }
  return null;
}

export interface CopilotSessionState {
  /** The session as it stands, or null when nothing of it could be read. */
  session: JsonObject | null;
  /** Lines of the log that were skipped, and why. */
  skipped: { line: number; reason: string }[];
}

/**
 * The session a file holds: a whole document (`.json`), or the changes of a `.jsonl` log applied in order as
 * VS Code's loader applies them. A log line that is not JSON, or a change that leads nowhere, is skipped and named.
 */
export function copilotSessionState(text: string, log: boolean): CopilotSessionState {
  if (!log) {
    try {
      const parsed: unknown = JSON.parse(text);
      return { session: isObject(parsed) ? parsed : null, skipped: [] };
    } catch {
      return { session: null, skipped: [] };
    }
  }
  let state: JsonObject | null = null;
  const skipped: CopilotSessionState['skipped'] = [];
  /** One line of the log applied; why not, when it cannot be. */
  const apply = (raw: string): string | null => {
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      return 'not JSON';
    }
    if (!isObject(entry)) return 'not a JSON object';
    if (entry['kind'] === INITIAL) {
      if (!isObject(entry['v'])) return 'a whole session that is not a JSON object';
      state = entry['v'];
      return null;
    }
    if (![SET, PUSH, DELETE].includes(entry['kind'] as number)) {
      return `a change of unknown kind ${JSON.stringify(entry['kind'])}`;
    }
    if (state === null) return 'a change before the whole session';
    return applyEntry(state, entry);
  };
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const reason = apply(raw);
    if (reason !== null) skipped.push({ line: index + 1, reason });
  }
  return { session: state, skipped };
}

/** A `string | IMarkdownString` kept as its text. */
function keptMarkdown(value: unknown): unknown {
  const text = markdownText(value);
  return text === undefined ? value : { value: keptText(text) };
}

/** A call's input as VS Code keeps it with the result (JSON text), cut as `keptInput` cuts it. */
function keptInputText(input: unknown): unknown {
  if (typeof input !== 'string' || input.length <= KEPT_TEXT_CHARS) return input;
  try {
    return JSON.stringify(keptInput(JSON.parse(input)));
  } catch {
    return keptText(input);
  }
}

/**
 * What a part's line keeps of it: the fields the reader reads, long texts cut as the turns made of them allow. A
 * response also holds edits, references and binary tool output, which can run to megabytes.
 */
function keptPart(part: unknown): unknown {
  if (!isObject(part)) return part;
  if (part['kind'] === undefined) return { value: keptText(stringOf(part['value']) ?? '') };
  if (part['kind'] === 'markdownContent')
    return { kind: part['kind'], content: keptMarkdown(part['content']) };
  if (part['kind'] !== 'toolInvocationSerialized') return { kind: part['kind'] };
  const kept: JsonObject = {};
  for (const key of ['kind', 'toolId', 'toolCallId', 'isConfirmed', 'isComplete']) {
    if (part[key] !== undefined) kept[key] = part[key];
  }
  if (part['invocationMessage'] !== undefined)
    kept['invocationMessage'] = keptMarkdown(part['invocationMessage']);
  const details = part['resultDetails'];
  if (isObject(details)) {
    const output = details['output'];
    kept['resultDetails'] = {
      ...(details['input'] === undefined ? {} : { input: keptInputText(details['input']) }),
      output:
        typeof output === 'string'
          ? keptText(output)
          : (Array.isArray(output) ? output : [])
              .filter((item): item is JsonObject => isObject(item) && item['isText'] !== false)
              .map((item) => ({ isText: true, value: keptText(stringOf(item['value']) ?? '') })),
      ...(details['isError'] === undefined ? {} : { isError: details['isError'] }),
    };
  }
  const specific = part['toolSpecificData'];
  if (isObject(specific)) {
    const keptSpecific: JsonObject = { kind: specific['kind'] };
    if (specific['rawInput'] !== undefined) keptSpecific['rawInput'] = keptInput(specific['rawInput']);
    for (const key of ['commandLine', 'command', 'terminalCommandState']) {
      if (specific[key] !== undefined) keptSpecific[key] = specific[key];
    }
    const output = specific['terminalCommandOutput'];
    if (isObject(output))
      keptSpecific['terminalCommandOutput'] = { text: keptText(stringOf(output['text']) ?? '') };
    kept['toolSpecificData'] = keptSpecific;
  }
  return kept;
}

/**
 * The lines of one session: `{"session"}`, a `{"skipped"}` line for each log line that could not be read, then for
 * each request `{"prompt"}`, each response part as `{"part"}`, and `{"end"}` once the answer ended. What can change
 * in place as a request goes on (a tool call ending) is in the part's own line. Null when the file held no session.
 */
export function copilotSessionLines(state: CopilotSessionState, folder: string | null): Buffer | null {
  const { session } = state;
  if (session === null) return null;
  const lines: unknown[] = [
    {
      session: {
        id: stringOf(session['sessionId']) ?? null,
        folder,
        ...(typeof session['creationDate'] === 'number' ? { creationDate: session['creationDate'] } : {}),
      },
    },
  ];
  for (const skip of state.skipped) lines.push({ skipped: skip });
  const requests = Array.isArray(session['requests']) ? session['requests'] : [];
  requests.forEach((request, index) => {
    if (!isObject(request)) {
      lines.push({ prompt: { index, request } });
      return;
    }
    const requestId = stringOf(request['requestId']) ?? `#${index}`;
    // Requests of older sessions carry no time of their own: they are given the session's.
    const timestamp =
      typeof request['timestamp'] === 'number'
        ? request['timestamp']
        : typeof session['creationDate'] === 'number'
          ? session['creationDate']
          : null;
    const message = request['message'];
    const text =
      typeof message === 'string' ? message : isObject(message) ? stringOf(message['text']) : undefined;
    lines.push({ prompt: { requestId, timestamp, text: text ?? '' } });
    const response = Array.isArray(request['response']) ? request['response'] : [];
    // Markdown parts between two tool calls are one reply; a call starts the next.
    let calls = 0;
    response.forEach((part, at) => {
      const replyId = `${requestId}:${calls}`;
      if (isObject(part) && part['kind'] === 'toolInvocationSerialized') calls++;
      lines.push({ part: { requestId, index: at, replyId, timestamp, data: keptPart(part) } });
    });
    const state = isObject(request['modelState']) ? request['modelState']['value'] : undefined;
    const ended = typeof state === 'number' && state !== 0;
    if (ended || request['isCanceled'] === true || isObject(request['result'])) {
      const cancelled = state === CANCELLED || request['isCanceled'] === true;
      const last = response[response.length - 1];
      const duringTool = isObject(last) && last['kind'] === 'toolInvocationSerialized';
      lines.push({ end: { requestId, cancelled, duringTool } });
    }
  });
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

/** The text of a `string | IMarkdownString`. */
function markdownText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return isObject(value) ? stringOf(value['value']) : undefined;
}

/** The visible words of a response part: a markdown string (`{value}`, no kind) or `markdownContent`. */
function partText(part: JsonObject): string | undefined {
  if (part['kind'] === undefined) return stringOf(part['value']);
  if (part['kind'] === 'markdownContent') return markdownText(part['content']);
  return undefined;
}

/** What a call was given: the input VS Code kept with its result, the tool's raw input, or the terminal command. */
function callInput(part: JsonObject): unknown {
  const details = isObject(part['resultDetails']) ? part['resultDetails'] : {};
  const specific = isObject(part['toolSpecificData']) ? part['toolSpecificData'] : {};
  if (specific['kind'] === 'input' && specific['rawInput'] !== undefined) return specific['rawInput'];
  if (specific['kind'] === 'terminal') {
    const command = isObject(specific['commandLine'])
      ? (stringOf(specific['commandLine']['original']) ?? stringOf(specific['commandLine']['toolEdited']))
      : stringOf(specific['command']);
    if (command !== undefined) return { command };
  }
  const input = stringOf(details['input']);
  return input === undefined ? undefined : parsedOr(input);
}

/** The text of a call's output: its text parts, else the terminal's output. */
function outputText(part: JsonObject): string {
  const details = isObject(part['resultDetails']) ? part['resultDetails'] : {};
  const output = details['output'];
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    const texts = output
      .filter((item): item is JsonObject => isObject(item) && item['isText'] !== false)
      .map((item) => stringOf(item['value']) ?? '')
      .filter((text) => text !== '');
    if (texts.length > 0) return texts.join('\n');
  }
  const specific = isObject(part['toolSpecificData']) ? part['toolSpecificData'] : {};
  return isObject(specific['terminalCommandOutput'])
    ? (stringOf(specific['terminalCommandOutput']['text']) ?? '')
    : '';
}

function denied(confirmed: unknown): boolean {
  return confirmed === false || (isObject(confirmed) && confirmed['type'] === DENIED);
}

function toolBodies(part: JsonObject, messageId: string): TurnBody[] {
  const callId = stringOf(part['toolCallId']) ?? messageId;
  const tool = stringOf(part['toolId']) ?? 'tool';
  const args = callInput(part);
  const input = summarizeInput(args);
  const description = describeCall(args, input, { otherwise: markdownText(part['invocationMessage']) });
  const bodies: TurnBody[] = [{ type: 'call', callId, tool, description, input, messageId }];
  if (denied(part['isConfirmed'])) {
    bodies.push({ type: 'result', callId, status: 'refused', text: '' });
    return bodies;
  }
  if (part['isComplete'] !== true) return bodies;
  const details = isObject(part['resultDetails']) ? part['resultDetails'] : {};
  const specific = isObject(part['toolSpecificData']) ? part['toolSpecificData'] : {};
  const exit = isObject(specific['terminalCommandState'])
    ? specific['terminalCommandState']['exitCode']
    : undefined;
  const exitCode = typeof exit === 'number' ? exit : undefined;
  const text = outputText(part);
  if (details['isError'] === true || (exitCode !== undefined && exitCode !== 0)) {
    bodies.push({
      type: 'result',
      callId,
      status: 'failed',
      text: errorExcerpt(text),
      ...(exitCode === undefined ? {} : { exitCode }),
    });
  } else {
    bodies.push({ type: 'result', callId, status: 'ok', text: successHead(text) });
  }
  return bodies;
}

function isoOf(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  if (isObject(value['session'])) {
    const session = value['session'];
    const cwd = stringOf(session['folder']);
    return {
      turns: cwd ? turnsOf({ line, at: isoOf(session['creationDate']), cwd }, [{ type: 'link' }]) : [],
    };
  }
  if (isObject(value['skipped'])) {
    const skipped = value['skipped'];
    return {
      turns: [],
      warning: `line ${String(skipped['line'])} of the session log skipped: ${String(skipped['reason'])}`,
    };
  }
  if (isObject(value['prompt'])) {
    const prompt = value['prompt'];
    if (prompt['request'] !== undefined) return { turns: [], warning: 'a request that is not a JSON object' };
    const text = stringOf(prompt['text'])?.trim() ?? '';
    return {
      turns: text === '' ? [] : turnsOf({ line, at: isoOf(prompt['timestamp']) }, [{ type: 'prompt', text }]),
    };
  }
  if (isObject(value['part'])) {
    const part = value['part'];
    const data = part['data'];
    if (!isObject(data)) return { turns: [], warning: 'a response part that is not a JSON object' };
    const stamp: Omit<TurnBase, 'part'> = { line, at: isoOf(part['timestamp']) };
    const requestId = stringOf(part['requestId']) ?? '';
    if (data['kind'] === 'toolInvocationSerialized') {
      return { turns: turnsOf(stamp, toolBodies(data, `${requestId}:${String(part['index'])}`)) };
    }
    const text = partText(data)?.trim() ?? '';
    const messageId = stringOf(part['replyId']) ?? requestId;
    return { turns: text === '' ? [] : turnsOf(stamp, [{ type: 'reply', text, messageId }]) };
  }
  if (isObject(value['end'])) {
    const end = value['end'];
    if (end['cancelled'] !== true) return { turns: [] };
    return {
      turns: turnsOf({ line, at: '' }, [{ type: 'interrupt', duringTool: end['duringTool'] === true }]),
    };
  }
  return { turns: [], warning: 'neither a session, a prompt, a response part nor an end' };
}

/** A session file's path → its session id (the file's name without `.json` or `.jsonl`). */
function sessionOf(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return name.replace(/\.jsonl?$/, '');
}

export const copilotChatReader: Reader = { agent: 'copilot-chat', sessionOf, parseLine };
