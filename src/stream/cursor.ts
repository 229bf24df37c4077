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
 * Cursor's chats (docs/formats/cursor.md). Cursor keeps them in the key-value table `cursorDiskKV` of its global
 * `state.vscdb`, not in a transcript: a composer (one chat) is a `composerData:<id>` row naming its bubbles (its
 * messages) in order, each bubble a `bubbleId:<composer id>:<bubble id>` row. Each composer is read as lines Remem
 * writes from its rows — the composer, then each bubble of the conversation as it stands — and those lines are what
 * is archived under `raw/` and parsed here. The source's path is `<store>#<composer id>`.
 */

/** What a composer's rows become: one JSON line each. */
export interface CursorRows {
  id: string;
  /** The folder the chat was opened in (the workspace naming the composer), when known. */
  folder: string | null;
  data: string;
  bubbles: { id: string; data: string }[];
}

/**
 * The bubbles on the conversation's live branch, in order: those the composer's `fullConversationHeadersOnly` names
 * (a bubble it no longer names was edited away or rewound), else the older inline `conversation`, else — a composer
 * that names none — every bubble row in the order it was written. A named bubble with no row is `null`.
 */
function liveBubbles(composer: unknown, rows: CursorRows['bubbles']): { id: string; data: unknown }[] {
  const headers = isObject(composer) ? composer['fullConversationHeadersOnly'] : undefined;
  if (Array.isArray(headers) && headers.length > 0) {
    const byId = new Map(rows.map((row) => [row.id, row.data]));
    return headers.flatMap((header) => {
      const id = isObject(header) ? stringOf(header['bubbleId']) : undefined;
      if (id === undefined) return [];
      const data = byId.get(id);
      return [{ id, data: data === undefined ? null : parsedOr(data) }];
    });
  }
  const inline = isObject(composer) ? composer['conversation'] : undefined;
  if (Array.isArray(inline) && inline.length > 0) {
    return inline.map((bubble, index) => ({
      id: (isObject(bubble) ? stringOf(bubble['bubbleId']) : undefined) ?? `#${index}`,
      data: bubble,
    }));
  }
  return rows.map((row) => ({ id: row.id, data: parsedOr(row.data) }));
}

/** Arguments (JSON text) kept as `keptInput` keeps them. */
function keptArgs(args: unknown): unknown {
  if (typeof args !== 'string' || args.length <= KEPT_TEXT_CHARS) return args;
  const parsed = objectOf(args);
  return isObject(parsed) ? JSON.stringify(keptInput(parsed)) : keptText(args);
}

/**
 * What a bubble's line keeps of its row: the fields the reader reads, a long tool result or argument cut as the
 * turns made of it allow. A bubble also holds the files and context it was sent with, which can run to megabytes.
 */
function keptBubble(data: unknown): unknown {
  if (!isObject(data)) return data;
  const kept: JsonObject = {};
  for (const key of ['type', 'text', 'createdAt']) if (data[key] !== undefined) kept[key] = data[key];
  const tool = data['toolFormerData'];
  if (!isObject(tool)) return kept;
  const call: JsonObject = {};
  for (const key of ['toolCallId', 'name', 'tool', 'status', 'userDecision']) {
    if (tool[key] !== undefined) call[key] = tool[key];
  }
  for (const key of ['params', 'rawArgs']) if (tool[key] !== undefined) call[key] = keptArgs(tool[key]);
  if (typeof tool['errorDetails'] === 'string') call['errorDetails'] = keptText(tool['errorDetails']);
  if (isObject(tool['additionalData']) && tool['additionalData']['userDecision'] !== undefined) {
    call['additionalData'] = { userDecision: tool['additionalData']['userDecision'] };
  }
  const result = tool['result'];
  if (result !== undefined) {
    const whole = typeof result === 'string' ? result.length : (JSON.stringify(result) ?? '').length;
    call['result'] =
      whole <= KEPT_TEXT_CHARS
        ? result
        : JSON.stringify({
            output: keptText(resultText(result)),
            ...(resultRejected(result) ? { rejected: true } : {}),
          });
  }
  kept['toolFormerData'] = call;
  return kept;
}

/**
 * The lines of one composer, or null when it holds no conversation (a chat opened and never sent). The composer's
 * line holds only what does not change as the chat goes on, so a chat that grew is read on from where it was.
 */
export function cursorComposerLines(rows: CursorRows): Buffer | null {
  const composer = parsedOr(rows.data);
  const bubbles = liveBubbles(composer, rows.bubbles);
  if (bubbles.length === 0) return null;
  const createdAt = isObject(composer) ? composer['createdAt'] : undefined;
  const lines = [
    JSON.stringify({
      composer: {
        id: rows.id,
        folder: rows.folder,
        ...(typeof createdAt === 'number' ? { createdAt } : {}),
        ...(isObject(composer) ? {} : { unreadable: true }),
      },
    }),
  ];
  // Bubbles of older chats carry no time of their own: they are given the chat's.
  const at = typeof createdAt === 'number' ? { at: createdAt } : {};
  for (const bubble of bubbles) {
    lines.push(
      JSON.stringify({
        bubble: { id: bubble.id, composerId: rows.id, ...at, data: keptBubble(bubble.data) },
      }),
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** A JSON text parsed, an object kept; anything else as it was. */
function objectOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parsed = parsedOr(value);
  return isObject(parsed) ? parsed : value;
}

/** The words of a tool's `result` (a JSON text: `{"output": …}` from the terminal, else other shapes). */
function resultText(result: unknown): string {
  const value = objectOf(result);
  if (typeof value === 'string') return value;
  if (!isObject(value)) return '';
  for (const key of ['output', 'error', 'stderr', 'message', 'contents']) {
    const text = stringOf(value[key]);
    if (text !== undefined) return text;
  }
  return JSON.stringify(value);
}

function resultRejected(result: unknown): boolean {
  const value = objectOf(result);
  return isObject(value) && value['rejected'] === true;
}

function rejected(tool: JsonObject): boolean {
  const additional = isObject(tool['additionalData']) ? tool['additionalData'] : {};
  return (
    tool['userDecision'] === 'rejected' ||
    additional['userDecision'] === 'rejected' ||
    resultRejected(tool['result'])
  );
}

function toolBodies(tool: JsonObject, bubbleId: string): TurnBody[] {
  const callId = stringOf(tool['toolCallId']) ?? bubbleId;
  const name = stringOf(tool['name']) ?? (typeof tool['tool'] === 'number' ? `tool_${tool['tool']}` : 'tool');
  const args = objectOf(tool['params'] ?? tool['rawArgs']);
  const input = summarizeInput(args);
  const description = describeCall(args, input, { keys: ['description', 'explanation'] });
  const bodies: TurnBody[] = [{ type: 'call', callId, tool: name, description, input, messageId: bubbleId }];
  const status = stringOf(tool['status']);
  // The person's rejection is recorded beside the status, which may still read `completed`.
  if (rejected(tool) || status === 'cancelled') {
    bodies.push({ type: 'result', callId, status: 'refused', text: '' });
  } else if (status === 'error') {
    const text = stringOf(tool['errorDetails']) ?? resultText(tool['result']);
    bodies.push({ type: 'result', callId, status: 'failed', text: errorExcerpt(text) });
  } else if (status === 'completed') {
    bodies.push({ type: 'result', callId, status: 'ok', text: successHead(resultText(tool['result'])) });
  }
  return bodies;
}

function bubbleBodies(data: JsonObject, bubbleId: string): TurnBody[] {
  const text = stringOf(data['text'])?.trim() ?? '';
  if (data['type'] === 1) return text === '' ? [] : [{ type: 'prompt', text }];
  if (data['type'] !== 2) return [];
  const bodies: TurnBody[] = text === '' ? [] : [{ type: 'reply', text, messageId: bubbleId }];
  if (isObject(data['toolFormerData'])) bodies.push(...toolBodies(data['toolFormerData'], bubbleId));
  return bodies;
}

function isoOf(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return '';
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  if (isObject(value['composer'])) {
    const composer = value['composer'];
    const cwd = stringOf(composer['folder']);
    const turns = cwd ? turnsOf({ line, at: isoOf(composer['createdAt']), cwd }, [{ type: 'link' }]) : [];
    if (composer['unreadable'] === true) {
      return {
        turns,
        warning: 'composer row whose value is not a JSON object: its bubbles read in stored order',
      };
    }
    return { turns };
  }
  if (isObject(value['bubble'])) {
    const bubble = value['bubble'];
    const data = bubble['data'];
    if (data === null) return { turns: [], warning: 'the chat names a bubble that has no row' };
    if (!isObject(data)) return { turns: [], warning: 'bubble row whose value is not a JSON object' };
    const stamp: Omit<TurnBase, 'part'> = { line, at: isoOf(data['createdAt']) || isoOf(bubble['at']) };
    return { turns: turnsOf(stamp, bubbleBodies(data, stringOf(bubble['id']) ?? '')) };
  }
  return { turns: [], warning: 'neither a composer nor a bubble row' };
}

/** `<store>#<composer id>` → the composer id. */
function sessionOf(path: string): string {
  const at = path.lastIndexOf('#');
  return at === -1 ? path : path.slice(at + 1);
}

export const cursorReader: Reader = { agent: 'cursor', sessionOf, parseLine };
