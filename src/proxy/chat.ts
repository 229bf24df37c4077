import type { Adapter, Reply, StreamReply } from './adapter.ts';
import { isObject, pushMessage, renderReply, textOf } from './text.ts';
import type { ProxyMessage } from './types.ts';

/** OpenAI Chat Completions (`POST /v1/chat/completions`), agent-formats.md §7.1–§7.2. */

const TEXT_PARTS = new Set(['text', 'input_text']);

const ROLES: Record<string, ProxyMessage['role']> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

const isSystem = (message: unknown): boolean =>
  isObject(message) && (message.role === 'system' || message.role === 'developer');

interface ToolCall {
  name: string;
  input: string;
}

/** Tool calls in the order of their `index`, from whole calls or streamed pieces. */
function addToolCalls(calls: Map<number, ToolCall>, list: unknown): void {
  if (!Array.isArray(list)) return;
  list.forEach((call, position) => {
    if (!isObject(call)) return;
    const index = typeof call.index === 'number' ? call.index : position;
    const fn = isObject(call.function) ? call.function : {};
    const known = calls.get(index) ?? { name: '', input: '' };
    if (typeof fn.name === 'string') known.name = fn.name;
    if (typeof fn.arguments === 'string') known.input += fn.arguments;
    calls.set(index, known);
  });
}

const inOrder = (calls: Map<number, ToolCall>): ToolCall[] =>
  [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);

export const chat: Adapter = {
  normalise(body) {
    const messages: ProxyMessage[] = [];
    if (!Array.isArray(body.messages)) return messages;
    for (const message of body.messages) {
      if (!isObject(message)) continue;
      const role = ROLES[String(message.role)];
      if (role) pushMessage(messages, role, textOf(message.content, TEXT_PARTS));
    }
    return messages;
  },

  place(body, injection) {
    const memory = { role: 'system', content: injection.text };
    const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
    if (injection.reason !== 'first') return { ...body, messages: [...messages, memory] };
    // Up front: its own system message, after the caller's, so their prefix stays as it was.
    let at = 0;
    while (at < messages.length && isSystem(messages[at])) at++;
    return { ...body, messages: [...messages.slice(0, at), memory, ...messages.slice(at)] };
  },

  replyFromJson(body) {
    const choice = isObject(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
    const message = isObject(choice) && isObject(choice.message) ? choice.message : {};
    const calls = new Map<number, ToolCall>();
    addToolCalls(calls, message.tool_calls);
    return {
      reply: renderReply(textOf(message.content, TEXT_PARTS), inOrder(calls)),
      complete: true,
      failed: !isObject(choice),
      responseId: undefined,
    };
  },

  streamReply(): StreamReply {
    let text = '';
    const calls = new Map<number, ToolCall>();
    let done = false;
    let finished = false;
    let failed = false;
    return {
      event(_name, data) {
        if (data === '[DONE]') {
          done = true;
          return;
        }
        if (!isObject(data)) return;
        if (data.error !== undefined) failed = true;
        // Some servers send `choices: null` on the usage chunk; only the first choice is the reply.
        const choice = Array.isArray(data.choices) ? data.choices[0] : undefined;
        if (!isObject(choice)) return;
        if (typeof choice.finish_reason === 'string') finished = true;
        const delta = isObject(choice.delta) ? choice.delta : {};
        if (typeof delta.content === 'string') text += delta.content;
        addToolCalls(calls, delta.tool_calls);
      },
      result(): Reply {
        return {
          reply: renderReply(text, inOrder(calls)),
          complete: done || finished,
          failed,
          responseId: undefined,
        };
      },
    };
  },
};
