import {
  clip,
  errorExcerpt,
  firstLine,
  folderLink,
  INPUT_CHARS,
  isObject,
  type JsonObject,
  keptText,
  stringOf,
  turnsOf,
} from './text.ts';
import type { LineResult, Reader, TurnBody } from './types.ts';

/**
 * Cline's tasks, and those of its forks Roo Code and Kilo Code (docs/formats/cline.md): each task a folder under the
 * extension's `globalStorage/<extension id>/tasks/<task id>/` in a VS Code user folder (VS Code's, Cursor's, …),
 * `ui_messages.json` the conversation as the panel shows it — an array of `ClineMessage`s, `say` what the extension
 * or the model said, `ask` what waited on the person — and `api_conversation_history.json` what went to the model,
 * where the folder the task ran in is named. Remem reads the panel's messages as lines it writes, one a message after
 * a line naming the folder, which are what is archived under `raw/` and parsed here.
 */

/** Where a task's first request names its folder: Cline's and Roo Code's words for it. */
const FOLDER = /# Current (?:Working|Workspace) Directory \(([^)\n]+)\)/;

/** The folder a task ran in, from the text of the conversation sent to the model; null when it names none. */
export function clineFolder(apiHistory: string): string | null {
  return FOLDER.exec(apiHistory.slice(0, 256 * 1024))?.[1]?.trim() ?? null;
}

/**
 * The lines Remem writes of a task's panel messages: a first line naming the folder and the extension, then one a
 * message, the messages still being written (`partial`) left out. Null when the file holds no message array.
 */
export function clineTaskLines(uiMessages: string, folder: string | null, extension: string): Buffer | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(uiMessages);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const lines: unknown[] = [{ task: { folder, extension } }];
  parsed.forEach((message, index) => {
    if (!isObject(message)) {
      lines.push({ message });
      return;
    }
    if (message['partial'] === true) return;
    // Roo Code, Kilo Code and Cline's earlier versions give the person's task as the first message, said as `text`:
    // nothing the model says can come before its first request.
    const task = index === 0 && message['type'] === 'say' && message['say'] === 'text';
    lines.push({ message: { ...message, ...(task ? { say: 'task' } : {}), text: keptOf(message['text']) } });
  });
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

function keptOf(text: unknown): string | undefined {
  return typeof text === 'string' ? keptText(text) : undefined;
}

/** A JSON object in a message's text (a tool's parameters, a question and its options), or null. */
function jsonOf(text: string): JsonObject | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** What a tool message asked: the path, the search, the URL, whatever names it. */
function toolInput(tool: JsonObject): string {
  for (const key of ['path', 'regex', 'url', 'query', 'command', 'content']) {
    const value = stringOf(tool[key]);
    if (value !== undefined) return clip(value, INPUT_CHARS);
  }
  return '';
}

/** The bodies of one panel message; `id` names the call a tool, command or failed edit message makes. */
function bodiesOf(message: JsonObject, id: string): TurnBody[] | null {
  const text = stringOf(message['text']) ?? '';
  const kind = message['type'] === 'ask' ? stringOf(message['ask']) : stringOf(message['say']);
  if (kind === undefined) return null;
  switch (kind) {
    // The person's own words: the task they gave, and what they typed back at any point after.
    case 'task':
    case 'user_feedback':
      return text.trim() === '' ? [] : [{ type: 'prompt', text: text.trim() }];
    case 'text':
    case 'completion_result':
      return text.trim() === '' ? [] : [{ type: 'reply', text: text.trim(), messageId: id }];
    case 'followup':
    case 'plan_mode_respond':
    case 'act_mode_respond': {
      // The model's question or plan, with the options it offered.
      const asked = jsonOf(text);
      const said = stringOf(asked?.['question']) ?? stringOf(asked?.['response']) ?? text;
      const options = Array.isArray(asked?.['options'])
        ? asked['options'].filter((o) => typeof o === 'string')
        : [];
      const whole = [said, ...options.map((option) => `- ${option}`)].join('\n').trim();
      return whole === '' ? [] : [{ type: 'reply', text: whole, messageId: id }];
    }
    case 'tool': {
      const tool = jsonOf(text);
      const name = stringOf(tool?.['tool']) ?? 'tool';
      const input = tool ? toolInput(tool) : '';
      return [
        { type: 'call', callId: id, tool: name, description: clip(`${name} ${input}`.trim(), 200), input },
      ];
    }
    case 'command':
      return [
        {
          type: 'call',
          callId: id,
          tool: 'execute_command',
          description: firstLine(text, 200),
          input: clip(text.trim(), INPUT_CHARS),
        },
      ];
    // An edit whose SEARCH block matched nothing in the file it names: the model's mistake. (A bare `error` says
    // many things — an API's failure, a parameter left out — and is not read as any call's.)
    case 'diff_error': {
      // Cline says the file's path; Roo Code and Kilo Code the whole error, "Unable to apply diff to file: …".
      const unable = /^Unable to apply diff to file: (.+)$/m.exec(text);
      const path = (unable?.[1] ?? firstLine(text, INPUT_CHARS)).trim();
      const failure = unable
        ? errorExcerpt(text.replace(/<\/?error_details>/g, '').replace(/\n\s*\n/g, '\n'))
        : `The SEARCH block did not match the content of ${path}`;
      return [
        {
          type: 'call',
          callId: id,
          tool: 'replace_in_file',
          description: clip(`replace_in_file ${path}`, 200),
          input: clip(path, INPUT_CHARS),
        },
        { type: 'result', callId: id, status: 'failed', text: failure },
      ];
    }
    default:
      // What the extension tracks for itself (requests, checkpoints, outputs of unknown ending) says nothing here.
      return [];
  }
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  if (isObject(value['task'])) return { turns: folderLink(value['task']['folder'], line, '') };
  const message = value['message'];
  if (!isObject(message)) return { turns: [], warning: 'a panel message that is not a JSON object' };
  const ts = message['ts'];
  const at = typeof ts === 'number' && Number.isFinite(ts) ? new Date(ts).toISOString() : '';
  const bodies = bodiesOf(message, `${line}`);
  if (bodies === null) return { turns: [], warning: 'a panel message neither said nor asked' };
  return { turns: turnsOf({ line, at }, bodies) };
}

/** `…/tasks/<task id>/ui_messages.json` → the task id. */
function sessionOf(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts.at(-2) ?? path;
}

export const clineReader: Reader = { agent: 'cline', sessionOf, parseLine };
