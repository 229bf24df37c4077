import type { ProxyMessage } from './types.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a content value: a string, or blocks whose `type` is one of `types`, joined. */
export function textOf(content: unknown, types: ReadonlySet<string>): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block) && typeof block.text === 'string' && types.has(String(block.type))) {
      parts.push(block.text);
    }
  }
  return parts.join('\n\n');
}

/** Adds a message unless it carries no text (a bare tool call, an image). */
export function pushMessage(messages: ProxyMessage[], role: ProxyMessage['role'], text: string): void {
  if (text.trim() !== '') messages.push({ role, text });
}

/** A reply as one string: the assistant's text, then one paragraph per tool call. */
export function renderReply(text: string, tools: ReadonlyArray<{ name: string; input: string }>): string {
  const parts = text === '' ? [] : [text];
  for (const tool of tools) parts.push(`[tool_use ${tool.name}] ${compactJson(tool.input)}`);
  return parts.join('\n\n');
}

/** Tool input as compact JSON when it parses (streams send it in pieces), else as it came. */
function compactJson(input: string): string {
  try {
    return JSON.stringify(JSON.parse(input));
  } catch {
    return input;
  }
}
