import type { Adapter, Reply, StreamReply } from './adapter.ts';
import { isObject, type JsonObject, pushMessage, renderReply, textOf } from './text.ts';
import type { ProxyMessage } from './types.ts';

/** OpenAI Responses (`POST /v1/responses`), agent-formats.md §7.1 and §7.3. */

const INPUT_PARTS = new Set(['input_text', 'output_text', 'text']);
const OUTPUT_PARTS = new Set(['output_text', 'text']);

const ROLES: Record<string, ProxyMessage['role']> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
};

type Item = { kind: 'text'; text: string } | { kind: 'tool'; name: string; input: string };

/** An output item as reply text or a tool call; reasoning and the like are not part of the reply. */
function itemOf(item: unknown): Item | undefined {
  if (!isObject(item)) return undefined;
  if (item.type === 'message') return { kind: 'text', text: textOf(item.content, OUTPUT_PARTS) };
  if (item.type === 'function_call' || item.type === 'custom_tool_call') {
    const input = item.type === 'function_call' ? item.arguments : item.input;
    return { kind: 'tool', name: String(item.name ?? ''), input: typeof input === 'string' ? input : '' };
  }
  return undefined;
}

function render(items: Iterable<Item | undefined>): string {
  const texts: string[] = [];
  const tools: Array<{ name: string; input: string }> = [];
  for (const item of items) {
    if (item?.kind === 'text' && item.text !== '') texts.push(item.text);
    else if (item?.kind === 'tool') tools.push(item);
  }
  return renderReply(texts.join('\n\n'), tools);
}

const idOf = (response: unknown): string | undefined =>
  isObject(response) && typeof response.id === 'string' ? response.id : undefined;

export const responses: Adapter = {
  normalise(body) {
    const messages: ProxyMessage[] = [];
    if (typeof body.instructions === 'string') pushMessage(messages, 'system', body.instructions);
    if (typeof body.input === 'string') pushMessage(messages, 'user', body.input);
    if (!Array.isArray(body.input)) return messages;
    for (const item of body.input) {
      if (!isObject(item)) continue;
      if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
        pushMessage(messages, 'tool', textOf(item.output, INPUT_PARTS));
      } else if (item.type === 'message' || item.type === undefined) {
        const role = ROLES[String(item.role)];
        if (role) pushMessage(messages, role, textOf(item.content, INPUT_PARTS));
      }
    }
    return messages;
  },

  place(body, injection) {
    if (injection.reason === 'first' || injection.reason === 'last') {
      const instructions =
        typeof body.instructions === 'string' && body.instructions !== '' ? body.instructions : '';
      return {
        ...body,
        instructions: instructions === '' ? injection.text : `${instructions}\n\n${injection.text}`,
      };
    }
    const memory = { type: 'message', role: 'developer', content: injection.text };
    const input: unknown[] =
      typeof body.input === 'string'
        ? [{ type: 'message', role: 'user', content: body.input }]
        : Array.isArray(body.input)
          ? body.input
          : [];
    return { ...body, input: [...input, memory] };
  },

  replyFromJson(body) {
    const output = isObject(body) && Array.isArray(body.output) ? body.output : [];
    const status = isObject(body) ? body.status : undefined;
    return {
      reply: render(output.map(itemOf)),
      complete: true,
      failed: status !== undefined && status !== 'completed',
      responseId: idOf(body),
    };
  },

  streamReply(): StreamReply {
    const items = new Map<number, Item | undefined>();
    let responseId: string | undefined;
    let complete = false;
    let failed = false;
    const at = (data: JsonObject): number => (typeof data.output_index === 'number' ? data.output_index : 0);
    return {
      event(_name, data) {
        if (!isObject(data)) return;
        switch (data.type) {
          case 'response.created':
          case 'response.in_progress':
            responseId = idOf(data.response) ?? responseId;
            return;
          case 'response.output_item.added':
          case 'response.output_item.done':
            items.set(at(data), itemOf(data.item));
            return;
          case 'response.output_text.delta': {
            const item = items.get(at(data));
            if (item?.kind === 'text') item.text += String(data.delta ?? '');
            else items.set(at(data), { kind: 'text', text: String(data.delta ?? '') });
            return;
          }
          case 'response.function_call_arguments.delta':
          case 'response.custom_tool_call_input.delta': {
            const item = items.get(at(data));
            if (item?.kind === 'tool') item.input += String(data.delta ?? '');
            return;
          }
          case 'response.completed':
          case 'response.incomplete':
          case 'response.failed': {
            complete = true;
            failed = data.type !== 'response.completed';
            const response = isObject(data.response) ? data.response : {};
            responseId = idOf(response) ?? responseId;
            if (Array.isArray(response.output)) {
              items.clear();
              response.output.forEach((item, index) => {
                items.set(index, itemOf(item));
              });
            }
            return;
          }
          case 'error':
            failed = true;
            return;
        }
      },
      result(): Reply {
        const ordered = [...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
        return { reply: render(ordered), complete, failed, responseId };
      },
    };
  },
};
