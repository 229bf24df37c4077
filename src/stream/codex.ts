import {
  clip,
  describeCall,
  errorExcerpt,
  firstLine,
  INPUT_CHARS,
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
 * Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`): one
 * `{timestamp, type, payload}` per line (agent-formats.md §4.1).
 */

const KNOWN_TYPES = new Set([
  'session_meta',
  'response_item',
  'compacted',
  'turn_context',
  'event_msg',
  'world_state',
]);

const INJECTED_OPENINGS = ['# AGENTS.md instructions', '<INSTRUCTIONS>'];
const INJECTED_TAGS = new Set(['skill', 'image']);

/**
 * Context Codex puts in user messages itself: AGENTS.md, and whole blocks such as
 * `<environment_context>…</environment_context>`, `<user_instructions>` or `<turn_aborted>`.
 * Their tags hold `_` or a space, which keeps a pasted HTML element a prompt.
 */
export function isInjectedContext(text: string): boolean {
  const trimmed = text.trim();
  if (INJECTED_OPENINGS.some((opening) => trimmed.startsWith(opening))) return true;
  const tag = /^<([a-z][a-z0-9_ -]*)>/i.exec(trimmed)?.[1];
  if (tag === undefined || !trimmed.endsWith(`</${tag}>`)) return false;
  return /[_ ]/.test(tag) || INJECTED_TAGS.has(tag);
}

/** The person's part of a user message's text pieces, without injected context. */
function promptText(pieces: readonly string[]): string {
  return pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '' && !isInjectedContext(piece))
    .join('\n\n');
}

function messagePieces(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter((part): part is JsonObject => isObject(part) && typeof part['text'] === 'string')
    .map((part) => part['text'] as string);
}

const SHELL_WRAPPER = /^(?:\/\S*\/)?(?:ba|z|)sh$/;

/** The command line of a shell call: `cmd` (exec_command), or `command` as a string or an argv. */
function commandOf(args: unknown): string | undefined {
  if (!isObject(args)) return undefined;
  const command = args['cmd'] ?? args['command'];
  if (typeof command === 'string') return command;
  if (!Array.isArray(command) || !command.every((part) => typeof part === 'string')) return undefined;
  const [shell, flag, script] = command as string[];
  // ["bash", "-lc", "<script>"]: the script is what the agent wrote.
  if (
    shell !== undefined &&
    SHELL_WRAPPER.test(shell) &&
    (flag === '-lc' || flag === '-c') &&
    script !== undefined
  ) {
    return script;
  }
  return command.join(' ');
}

function callBody(payload: JsonObject): TurnBody {
  const tool = stringOf(payload['name']) ?? (payload['type'] === 'local_shell_call' ? 'local_shell' : '');
  const callId = stringOf(payload['call_id']) ?? stringOf(payload['id']) ?? '';
  const args =
    payload['type'] === 'custom_tool_call'
      ? payload['input']
      : payload['type'] === 'local_shell_call'
        ? (payload['action'] as unknown)
        : parsedOr(payload['arguments']);
  const command = commandOf(args);
  if (command !== undefined) {
    return {
      type: 'call',
      callId,
      tool,
      description: firstLine(command, 200),
      input: clip(command.trim(), INPUT_CHARS),
    };
  }
  const files =
    typeof args === 'string' ? [...args.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)] : [];
  const input = summarizeInput(args);
  const description =
    files.length > 0
      ? clip(`${tool} ${files.map((match) => match[1]).join(', ')}`, 200)
      : describeCall(args, input);
  return { type: 'call', callId, tool, description, input };
}

const EXIT_LINE = /^(?:Process exited with code|Exit code:) (-?\d+)$/;
const REFUSED_LINE = /^(?:aborted by user|exec command rejected by user|patch rejected by user)/;

interface Outcome {
  text: string;
  exitCode?: number;
  failed?: boolean;
  refused?: boolean;
}

/** Reads the two shapes of a shell output: a header ending in `Output:`, or JSON with `metadata.exit_code`. */
function outcomeOf(output: unknown): Outcome {
  if (Array.isArray(output)) return { text: messagePieces(output).join('\n') };
  if (isObject(output)) {
    const text = stringOf(output['content']) ?? '';
    return output['success'] === false ? { text, failed: true } : { text };
  }
  if (typeof output !== 'string') return { text: '' };
  if (output.trimStart().startsWith('{')) {
    const parsed = parsedOr(output);
    if (isObject(parsed) && typeof parsed['output'] === 'string') {
      const metadata = parsed['metadata'];
      const code = (isObject(metadata) ? metadata['exit_code'] : undefined) ?? parsed['exit_code'];
      return typeof code === 'number'
        ? { text: parsed['output'], exitCode: code }
        : { text: parsed['output'] };
    }
  }
  const lines = output.split('\n');
  const outputAt = lines.findIndex((line) => line.trim() === 'Output:');
  // Only the header says how the process ended; the same words further down are the program's own.
  const header = outputAt >= 0 ? lines.slice(0, outputAt) : lines.slice(0, 3);
  const text = outputAt >= 0 ? lines.slice(outputAt + 1).join('\n') : output;
  const outcome: Outcome = { text };
  for (const line of header) {
    const exit = EXIT_LINE.exec(line.trim());
    if (exit) outcome.exitCode = Number(exit[1]);
    if (REFUSED_LINE.test(line.trim())) outcome.refused = true;
  }
  return outcome;
}

function resultBody(payload: JsonObject): TurnBody {
  const callId = stringOf(payload['call_id']) ?? '';
  const { text, exitCode, failed, refused } = outcomeOf(payload['output']);
  const code = exitCode === undefined ? {} : { exitCode };
  if (refused) return { type: 'result', callId, status: 'refused', text: successHead(text), ...code };
  if (failed || (exitCode !== undefined && exitCode !== 0)) {
    return { type: 'result', callId, status: 'failed', text: errorExcerpt(text), ...code };
  }
  return { type: 'result', callId, status: 'ok', text: successHead(text), ...code };
}

function responseItemBodies(payload: JsonObject): TurnBody[] {
  switch (payload['type']) {
    case 'message': {
      const pieces = messagePieces(payload['content']);
      if (payload['role'] === 'user') {
        const text = promptText(pieces);
        return text === '' ? [] : [{ type: 'prompt', text }];
      }
      if (payload['role'] === 'assistant') {
        const text = pieces.join('\n').trim();
        const messageId = stringOf(payload['id']);
        return text === ''
          ? []
          : [{ type: 'reply', text, ...(messageId === undefined ? {} : { messageId }) }];
      }
      // developer and system messages are the harness's instructions.
      return [];
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
      return [callBody(payload)];
    case 'function_call_output':
    case 'custom_tool_call_output':
      return [resultBody(payload)];
    default:
      return [];
  }
}

function eventBodies(payload: JsonObject): TurnBody[] {
  switch (payload['type']) {
    case 'user_message': {
      const text = promptText(messagePieces(payload['message']));
      return text === '' ? [] : [{ type: 'prompt', text }];
    }
    case 'agent_message': {
      const text = stringOf(payload['message'])?.trim() ?? '';
      return text === '' ? [] : [{ type: 'reply', text }];
    }
    case 'turn_aborted': {
      // The person stopped the turn (Esc, Ctrl-C) or sent a message that replaced it; a review's end or a spent
      // budget is Codex's own ending, not the person's.
      const reason = stringOf(payload['reason']);
      return reason === undefined || reason === 'interrupted' || reason === 'replaced'
        ? [{ type: 'interrupt', duringTool: false }]
        : [];
    }
    default:
      return [];
  }
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  const type = value['type'];
  const payload = isObject(value['payload']) ? value['payload'] : {};
  const stamp: Omit<TurnBase, 'part'> = { line, at: stringOf(value['timestamp']) ?? '' };
  if (type === 'session_meta' || type === 'turn_context') {
    const cwd = stringOf(payload['cwd']);
    return { turns: cwd === undefined ? [] : turnsOf({ ...stamp, cwd }, [{ type: 'link' }]) };
  }
  if (type === 'event_msg') return { turns: turnsOf(stamp, eventBodies(payload)) };
  if (type === 'response_item') {
    const bodies = responseItemBodies(payload);
    const visible = bodies.some((body) => body.type === 'prompt' || body.type === 'reply');
    // The event copy of the same turn is the one `assemble` keeps.
    return { turns: turnsOf(visible ? { ...stamp, echo: true } : stamp, bodies) };
  }
  if (type === 'compacted') {
    return {
      turns: turnsOf(stamp, [{ type: 'compaction', text: stringOf(payload['message'])?.trim() ?? '' }]),
    };
  }
  if (typeof type !== 'string') return { turns: [], warning: 'record without a type' };
  if (KNOWN_TYPES.has(type) || type.startsWith('inter_agent_communication')) return { turns: [] };
  return { turns: [], warning: `unknown record type ${clip(type, 60)}` };
}

const ROLLOUT_ID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The thread id at the end of `rollout-<time>-<uuid>.jsonl`. */
function sessionOf(path: string): string {
  const match = ROLLOUT_ID.exec(path);
  if (match?.[1] !== undefined) return match[1];
  const name = path.split(/[\\/]/).at(-1) ?? '';
  return name.replace(/^rollout-/, '').replace(/\.jsonl$/, '');
}

/** A rollout record: a known type and its payload. */
function recognizes(record: Record<string, unknown>): boolean {
  return typeof record['type'] === 'string' && KNOWN_TYPES.has(record['type']) && 'payload' in record;
}

export const codexReader: Reader = { agent: 'codex', sessionOf, parseLine, recognizes };
