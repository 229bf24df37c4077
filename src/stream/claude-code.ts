import { skimClaudeCodeLine } from './claude-code-skim.ts';
import {
  clip,
  describeCall,
  errorExcerpt,
  isObject,
  type JsonObject,
  leadingExitCode,
  REFUSAL_OPENING_CHARS,
  stringOf,
  successHead,
  summarizeInput,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBase, TurnBody } from './types.ts';

/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl` and
 * `<session>/subagents/agent-<id>.jsonl`); the rules are those of agent-formats.md §1.2–§1.4.
 */

export const INTERRUPT = '[Request interrupted by user]';
export const INTERRUPT_FOR_TOOL_USE = '[Request interrupted by user for tool use]';

/** Openings of the tool results Claude Code writes when the person says no to a call. */
const REFUSAL_OPENINGS = [
  "The user doesn't want to proceed",
  "The user doesn't want to take this action",
  // The same refusal, as a subagent is told it.
  'Permission for this tool use was denied',
];
const REFUSAL_REASON = /the user said:\r?\n([\s\S]*)$/i;

/** Blocks the harness writes into user lines; a block made only of these is not the person speaking. */
const HARNESS_TAGS = new Set([
  'command-name',
  'command-message',
  'command-args',
  'command-contents',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'system-reminder',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
  'task-notification',
  'user-prompt-submit-hook',
  'ide_opened_file',
  'ide_selection',
  'ide_diagnostics',
]);

const COMPACT_SUMMARY_OPENING = 'This session is being continued from a previous conversation';

const CONVERSATION_TYPES = new Set(['user', 'assistant', 'system', 'queue-operation']);

/** Record types that carry no conversation (agent-formats.md §1.2). */
const METADATA_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'attachment',
  'progress',
  'ai-title',
  'custom-title',
  'last-prompt',
  'mode',
  'agent-setting',
  'pr-link',
  'turn_end',
]);

/** True when the whole block is harness text: one or more complete wrapper elements, or hook feedback. */
export function isHarnessText(text: string): boolean {
  let rest = text.trim();
  if (rest.startsWith('Stop hook feedback:')) return true;
  if (rest === '') return false;
  while (rest !== '') {
    const open = /^<([a-z_-]+)(?:\s[^>]*)?>/.exec(rest);
    const tag = open?.[1];
    if (open === null || tag === undefined || !HARNESS_TAGS.has(tag)) return false;
    const close = rest.indexOf(`</${tag}>`, open[0].length);
    if (close < 0) return false;
    rest = rest.slice(close + tag.length + 3).trimStart();
  }
  return true;
}

/** What one text block typed into a user line is: the person's words, an interrupt, a summary, or nothing. */
function textBody(text: string): TurnBody | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed === INTERRUPT) return { type: 'interrupt', duringTool: false };
  if (trimmed === INTERRUPT_FOR_TOOL_USE) return { type: 'interrupt', duringTool: true };
  if (isHarnessText(trimmed)) return undefined;
  if (trimmed.startsWith(COMPACT_SUMMARY_OPENING)) return { type: 'compaction', text: trimmed };
  return { type: 'prompt', text: trimmed };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is JsonObject => isObject(block) && typeof block['text'] === 'string')
    .map((block) => block['text'] as string)
    .join('\n');
}

function refusalOf(record: JsonObject, text: string): { reason?: string } | undefined {
  const opening = text.slice(0, REFUSAL_OPENING_CHARS).trimStart();
  const refused =
    record['toolUseResult'] === 'User rejected tool use' ||
    stringOf(record['toolDenialKind']) !== undefined ||
    REFUSAL_OPENINGS.some((prefix) => opening.startsWith(prefix));
  if (!refused) return undefined;
  const reason = REFUSAL_REASON.exec(text)?.[1]?.trim();
  return reason ? { reason } : {};
}

/**
 * A successful result's turn reads at most `RESULT_HEAD_CHARS` of its text, and knows only whether it is longer
 * (every length test below is against less); a refused or failed one reads all of it.
 */
function resultBody(block: JsonObject, record: JsonObject): TurnBody {
  const callId = stringOf(block['tool_use_id']) ?? '';
  let text = contentText(block['content']);
  if (typeof record['toolUseResult'] === 'string' && text.length < 4096 && text.trim() === '') {
    text = record['toolUseResult'];
  }
  const refusal = refusalOf(record, text);
  if (refusal !== undefined) {
    return { type: 'result', callId, status: 'refused', text: successHead(text), ...refusal };
  }
  const trimmed = text.length < 256 ? text.trim() : '';
  // The person stopped a running call: theirs, not the tool's failure.
  if (trimmed === INTERRUPT || trimmed === INTERRUPT_FOR_TOOL_USE) {
    return { type: 'result', callId, status: 'refused', text: trimmed };
  }
  const exitCode = leadingExitCode(text);
  const code = exitCode === undefined ? {} : { exitCode };
  if (block['is_error'] === true) {
    return { type: 'result', callId, status: 'failed', text: errorExcerpt(text), ...code };
  }
  return { type: 'result', callId, status: 'ok', text: successHead(text), ...code };
}

function userBodies(record: JsonObject): TurnBody[] {
  const message = record['message'];
  const content = isObject(message) ? message['content'] : undefined;
  if (record['isCompactSummary'] === true) return [{ type: 'compaction', text: contentText(content).trim() }];
  if (record['isMeta'] === true) return [];
  if (typeof content === 'string') {
    const body = textBody(content);
    return body === undefined ? [] : [body];
  }
  if (!Array.isArray(content)) return [];
  const bodies: TurnBody[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block['type'] === 'tool_result') {
      bodies.push(resultBody(block, record));
    } else if (block['type'] === 'text' && typeof block['text'] === 'string') {
      const body = textBody(block['text']);
      const last = bodies.at(-1);
      // Text blocks of one message are one prompt.
      if (body?.type === 'prompt' && last?.type === 'prompt') last.text = `${last.text}\n\n${body.text}`;
      else if (body !== undefined) bodies.push(body);
    }
  }
  return bodies;
}

function callBody(block: JsonObject, messageId: string | undefined): TurnBody {
  const input = block['input'];
  const summary = summarizeInput(input);
  const description = describeCall(input, summary);
  return {
    type: 'call',
    callId: stringOf(block['id']) ?? '',
    tool: stringOf(block['name']) ?? '',
    description,
    input: summary,
    ...(messageId === undefined ? {} : { messageId }),
  };
}

function assistantBodies(record: JsonObject): TurnBody[] {
  const message = record['message'];
  if (!isObject(message)) return [];
  // Harness-made lines (API errors, "No response requested.") are not the model's words.
  if (message['model'] === '<synthetic>') return [];
  const messageId = stringOf(message['id']);
  const id = messageId === undefined ? {} : { messageId };
  const content = message['content'];
  if (typeof content === 'string') {
    return content.trim() === '' ? [] : [{ type: 'reply', text: content.trim(), ...id }];
  }
  if (!Array.isArray(content)) return [];
  const bodies: TurnBody[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    const type = block['type'];
    if (type === 'text' && typeof block['text'] === 'string') {
      const text = block['text'].trim();
      if (text !== '' && text !== '(no content)') bodies.push({ type: 'reply', text, ...id });
    } else if (type === 'tool_use' || type === 'server_tool_use') {
      bodies.push(callBody(block, messageId));
    }
  }
  return bodies;
}

function queuedBodies(record: JsonObject): TurnBody[] {
  if (record['operation'] !== 'remove') return [];
  const body = textBody(contentText(record['content']));
  return body?.type === 'prompt' ? [{ ...body, queued: true }] : [];
}

function stampOf(record: JsonObject, line: number): Omit<TurnBase, 'part'> {
  const stamp: Omit<TurnBase, 'part'> = { line, at: stringOf(record['timestamp']) ?? '' };
  const uuid = stringOf(record['uuid']);
  if (uuid !== undefined) stamp.uuid = uuid;
  const isBoundary = record['type'] === 'system' && record['subtype'] === 'compact_boundary';
  // A compaction boundary starts a new root; its logical parent keeps the session one chain.
  const parent = stringOf(
    isBoundary ? (record['logicalParentUuid'] ?? record['parentUuid']) : record['parentUuid'],
  );
  if (parent !== undefined) stamp.parent = parent;
  else if (uuid !== undefined && !('parentUuid' in record) && !isBoundary) stamp.follows = true;
  if (record['isSidechain'] === true || stringOf(record['agentId']) !== undefined) stamp.sidechain = true;
  const cwd = stringOf(record['cwd']);
  if (cwd !== undefined) stamp.cwd = cwd;
  return stamp;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function bodiesOf(record: JsonObject): TurnBody[] {
  switch (record['type']) {
    case 'user':
      return userBodies(record);
    case 'assistant':
      return assistantBodies(record);
    case 'system':
      return record['subtype'] === 'compact_boundary' ? [{ type: 'compaction', text: '' }] : [];
    case 'queue-operation':
      return queuedBodies(record);
    default:
      return [];
  }
}

function warningOf(type: unknown): string | undefined {
  if (typeof type !== 'string') return 'record without a type';
  if (CONVERSATION_TYPES.has(type) || METADATA_TYPES.has(type)) return undefined;
  return `unknown record type ${clip(type, 60)}`;
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: `not a JSON object but ${describe(value)}` };
  const stamp = stampOf(value, line);
  let bodies = bodiesOf(value);
  // Every line with a uuid stays in the chain, so the live branch can be followed through it.
  if (bodies.length === 0 && stamp.uuid !== undefined) bodies = [{ type: 'link' }];
  const turns = turnsOf(stamp, bodies);
  const warning = warningOf(value['type']);
  return warning === undefined ? { turns } : { turns, warning };
}

/** The session a transcript belongs to: `<session>.jsonl`, or `<session>/subagents/agent-<id>.jsonl`. */
function sessionOf(path: string): string {
  const parts = path.split(/[\\/]/);
  const name = parts.at(-1) ?? '';
  if (parts.length >= 3 && parts.at(-2) === 'subagents' && name.startsWith('agent-')) {
    return parts.at(-3) ?? '';
  }
  return name.replace(/\.jsonl$/, '');
}

/** A record of the conversation or its metadata, stamped with the session or the message it belongs to. */
function recognizes(record: Record<string, unknown>): boolean {
  const type = record['type'];
  if (typeof type !== 'string' || !(CONVERSATION_TYPES.has(type) || METADATA_TYPES.has(type))) return false;
  return 'sessionId' in record || 'uuid' in record || 'leafUuid' in record;
}

export const claudeCodeReader: Reader = {
  agent: 'claude-code',
  sessionOf,
  parseLine,
  recognizes,
  skimLine: (bytes, start, end, line) => skimClaudeCodeLine(bytes, start, end, line, parseLine),
};
