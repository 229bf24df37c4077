import { folderLink, isObject, keptText, stringOf, turnsOf } from './text.ts';
import type { LineResult, Reader } from './types.ts';

/**
 * Continue's chat sessions (docs/formats/continue.md): one JSON file a session under `~/.continue/sessions/`
 * (`CONTINUE_GLOBAL_DIR` moves the folder), `{sessionId, title, workspaceDirectory, history}`, each history item a
 * message — `{role, content}`, the content a string or a list of parts — with what was sent beside it. The file is
 * written again whole as the chat goes on. Remem reads the session as lines it writes, a first one naming the folder
 * and one a message, which are what is archived under `raw/` and parsed here.
 */

/** The text of a message's content: a string, or the text parts of a list. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && part['type'] === 'text' ? (stringOf(part['text']) ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** A workspace as Continue names it: a path, or a `file://` URI in later versions. */
function folderOf(workspace: unknown): string | null {
  const named = stringOf(workspace);
  if (named === undefined) return null;
  if (!named.startsWith('file://')) return named;
  try {
    return decodeURIComponent(new URL(named).pathname);
  } catch {
    return null;
  }
}

/**
 * The lines Remem writes of a Continue session, every message given the session's time `at` (the files keep no time
 * of a message); null when the text is not a session (no history array).
 */
export function continueSessionLines(json: string, at: string): Buffer | null {
  let session: unknown;
  try {
    session = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isObject(session) || !Array.isArray(session['history'])) return null;
  const lines: unknown[] = [{ at, session: { folder: folderOf(session['workspaceDirectory']) } }];
  for (const item of session['history']) {
    const message = isObject(item) ? item['message'] : undefined;
    if (!isObject(message)) {
      lines.push({ at, message: null });
      continue;
    }
    lines.push({ at, message: { role: message['role'], text: keptText(contentText(message['content'])) } });
  }
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

function parseLine(value: unknown, line: number): LineResult {
  if (!isObject(value)) return { turns: [], warning: 'not a JSON object' };
  const at = stringOf(value['at']) ?? '';
  if (isObject(value['session'])) return { turns: folderLink(value['session']['folder'], line, at) };
  const message = value['message'];
  if (!isObject(message)) return { turns: [], warning: 'a history item without a message' };
  const text = (stringOf(message['text']) ?? '').trim();
  if (text === '') return { turns: [] };
  switch (message['role']) {
    case 'user':
      return { turns: turnsOf({ line, at }, [{ type: 'prompt', text }]) };
    case 'assistant':
      return { turns: turnsOf({ line, at }, [{ type: 'reply', text, messageId: `${line}` }]) };
    default:
      // The system prompt, a tool's output, the model's thinking: not the conversation's words.
      return { turns: [] };
  }
}

/** `…/sessions/<session id>.json` → the session id. */
function sessionOf(path: string): string {
  const name = path.split(/[\\/]/).at(-1) ?? path;
  return name.replace(/\.json$/, '');
}

export const continueReader: Reader = { agent: 'continue', sessionOf, parseLine };
