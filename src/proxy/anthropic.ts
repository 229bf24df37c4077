import type { Adapter, Reply, StreamReply } from './adapter.ts';
import { isObject, type JsonObject, pushMessage, renderReply, textOf } from './text.ts';
import type { ProxyMessage } from './types.ts';

/** Anthropic Messages (`POST /v1/messages`), agent-formats.md §7.1 and §7.4. */

const TEXT_BLOCKS = new Set(['text']);

/** Anthropic refuses a request with more cache breakpoints than this (a 400). */
export const MAX_BREAKPOINTS = 4;

const hasBreakpoint = (value: unknown): boolean => isObject(value) && value.cache_control != null;

const countIn = (list: unknown, count: (item: unknown) => number): number =>
  Array.isArray(list) ? list.reduce<number>((sum, item) => sum + count(item), 0) : 0;

function blockBreakpoints(block: unknown): number {
  const nested =
    isObject(block) && block.type === 'tool_result' ? countIn(block.content, blockBreakpoints) : 0;
  return (hasBreakpoint(block) ? 1 : 0) + nested;
}

/** Cache breakpoints in a request: top level (automatic caching), tools, system and message blocks. */
export function countBreakpoints(body: JsonObject): number {
  return (
    (hasBreakpoint(body) ? 1 : 0) +
    countIn(body.tools, (tool) => (hasBreakpoint(tool) ? 1 : 0)) +
    countIn(body.system, blockBreakpoints) +
    countIn(body.messages, (message) => (isObject(message) ? countIn(message.content, blockBreakpoints) : 0))
  );
}

/** The memory after the caller's system content, which stays as it was (a string only becomes blocks to carry a breakpoint). */
function appendSystem(body: JsonObject, text: string, cached: boolean): JsonObject {
  const block = cached
    ? { type: 'text', text, cache_control: { type: 'ephemeral' } }
    : { type: 'text', text };
  const system = body.system;
  if (Array.isArray(system)) return { ...body, system: [...system, block] };
  if (typeof system === 'string' && system !== '') {
    return { ...body, system: cached ? [{ type: 'text', text: system }, block] : `${system}\n\n${text}` };
  }
  return { ...body, system: cached ? [block] : text };
}

/** The memory as a text block after the latest user message's content (a string becomes blocks). */
function appendToLastUser(body: JsonObject, text: string): JsonObject | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1);
  if (!isObject(last) || last.role !== 'user') return undefined;
  const content: unknown[] =
    typeof last.content === 'string'
      ? last.content === ''
        ? []
        : [{ type: 'text', text: last.content }]
      : Array.isArray(last.content)
        ? last.content
        : [];
  const updated = { ...last, content: [...content, { type: 'text', text }] };
  return { ...body, messages: [...messages.slice(0, -1), updated] };
}

type Block = { kind: 'text'; text: string } | { kind: 'tool'; name: string; input: string };

function render(blocks: Iterable<Block | undefined>): string {
  const texts: string[] = [];
  const tools: Array<{ name: string; input: string }> = [];
  for (const block of blocks) {
    if (block?.kind === 'text' && block.text !== '') texts.push(block.text);
    else if (block?.kind === 'tool') tools.push(block);
  }
  return renderReply(texts.join('\n\n'), tools);
}

function blockOf(block: unknown, whole: boolean): Block | undefined {
  if (!isObject(block)) return undefined;
  if (block.type === 'text') return { kind: 'text', text: typeof block.text === 'string' ? block.text : '' };
  if (block.type === 'tool_use' || block.type === 'server_tool_use') {
    // A stream starts a tool block with `input: {}` and sends the input as JSON pieces.
    const input = whole || (isObject(block.input) && Object.keys(block.input).length > 0);
    return {
      kind: 'tool',
      name: String(block.name ?? ''),
      input: input ? JSON.stringify(block.input ?? {}) : '',
    };
  }
  return undefined;
}

export const anthropic: Adapter = {
  normalise(body) {
    const messages: ProxyMessage[] = [];
    pushMessage(messages, 'system', textOf(body.system, TEXT_BLOCKS));
    if (!Array.isArray(body.messages)) return messages;
    for (const message of body.messages) {
      if (!isObject(message)) continue;
      const role = message.role;
      if (role !== 'user' && role !== 'assistant' && role !== 'system') continue;
      if (Array.isArray(message.content)) {
        for (const block of message.content) {
          if (isObject(block) && block.type === 'tool_result') {
            pushMessage(messages, 'tool', textOf(block.content, TEXT_BLOCKS));
          }
        }
      }
      pushMessage(messages, role, textOf(message.content, TEXT_BLOCKS));
    }
    return messages;
  },

  place(body, injection) {
    if (injection.reason === 'first') {
      return appendSystem(body, injection.text, countBreakpoints(body) < MAX_BREAKPOINTS);
    }
    if (injection.reason === 'last') return appendSystem(body, injection.text, false);
    // At the moment: beside the latest turn, which keeps every cached prefix intact.
    return appendToLastUser(body, injection.text) ?? appendSystem(body, injection.text, false);
  },

  replyFromJson(body) {
    const content = isObject(body) && Array.isArray(body.content) ? body.content : [];
    return {
      reply: render(content.map((block) => blockOf(block, true))),
      complete: true,
      failed: !isObject(body) || body.type === 'error',
      responseId: undefined,
    };
  },

  streamReply(): StreamReply {
    const blocks = new Map<number, Block | undefined>();
    let complete = false;
    let failed = false;
    return {
      event(_name, data) {
        if (!isObject(data)) return;
        const index = typeof data.index === 'number' ? data.index : 0;
        switch (data.type) {
          case 'content_block_start':
            blocks.set(index, blockOf(data.content_block, false));
            return;
          case 'content_block_delta': {
            const block = blocks.get(index);
            const delta = isObject(data.delta) ? data.delta : {};
            if (delta.type === 'text_delta' && block?.kind === 'text') block.text += String(delta.text ?? '');
            if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
              block.input += String(delta.partial_json ?? '');
            }
            return;
          }
          case 'message_stop':
            complete = true;
            return;
          case 'error':
            failed = true;
            return;
        }
      },
      result(): Reply {
        const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
        return { reply: render(ordered), complete, failed, responseId: undefined };
      },
    };
  },
};
