/** The hook payload, as Claude Code and Codex send it (agent-formats §2.2, §4.3), checked by hand: a hook has no time for a schema library. */
export interface HookPayload {
  event: 'UserPromptSubmit' | 'Stop' | 'PreToolUse' | 'SessionEnd' | 'SessionStart' | 'other';
  session: string;
  cwd: string | null;
  transcriptPath: string | null;
  prompt: string;
  lastAssistantMessage: string;
  stopHookActive: boolean;
  toolName: string;
  toolInput: unknown;
}

const EVENTS = new Set(['UserPromptSubmit', 'Stop', 'PreToolUse', 'SessionEnd', 'SessionStart']);

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The payload, or the reason it was refused. */
export function parsePayload(raw: string): HookPayload | { refused: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { refused: 'the hook input is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { refused: 'the hook input is not a JSON object' };
  }
  const body = value as Record<string, unknown>;
  const name = text(body['hook_event_name']);
  const session = text(body['session_id']);
  if (!name) return { refused: 'the hook input has no hook_event_name' };
  if (!session) return { refused: 'the hook input has no session_id' };
  return {
    event: (EVENTS.has(name) ? name : 'other') as HookPayload['event'],
    session,
    cwd: text(body['cwd']) || null,
    transcriptPath: text(body['transcript_path']) || null,
    prompt: text(body['prompt']),
    lastAssistantMessage: text(body['last_assistant_message']),
    stopHookActive: body['stop_hook_active'] === true,
    toolName: text(body['tool_name']),
    toolInput: body['tool_input'],
  };
}

/** A tool call as text to compare with error lessons: the tool and what it was asked to do. */
export function describeCall(tool: string, input: unknown): string {
  if (typeof input !== 'object' || input === null) return tool;
  const fields = input as Record<string, unknown>;
  const parts = ['description', 'command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query']
    .map((key) => fields[key])
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .map((part) => (part.length > 300 ? part.slice(0, 300) : part));
  return `${tool}: ${parts.join(' ')}`.trim();
}

/** What a tool call runs and the files it names, for what it is about (`truth/subjects.ts`). */
export function callParts(input: unknown): { command: string; files: string[] } {
  if (typeof input !== 'object' || input === null) return { command: '', files: [] };
  const fields = input as Record<string, unknown>;
  const command = [fields['command'], fields['cmd']].find((part) => typeof part === 'string') ?? '';
  const files = ['file_path', 'path', 'notebook_path']
    .map((key) => fields[key])
    .filter((part): part is string => typeof part === 'string' && part.length > 0);
  return { command: Array.isArray(command) ? command.join(' ') : String(command), files };
}
