import { readFileSync } from 'node:fs';
import { copilotSessionLines, copilotSessionState, discoverCopilotSessions } from '../stream/index.ts';

/** A source of ingest.ts (`Source`), as this module makes them. */
interface CopilotSource {
  path: string;
  agent: 'copilot-chat';
  bytes?: Buffer;
  unreadable?: string;
}

/**
 * Copilot Chat's sessions under a VS Code user folder, one source per session file (docs/formats/copilot-chat.md):
 * each file rebuilt into the session as it stands and given as the lines made of it. A file that cannot be read, or
 * holds no session, is a source that says so; the run warns and goes on.
 */
export function copilotSources(userDir: string): CopilotSource[] {
  return discoverCopilotSessions(userDir).map((file) => copilotFileSource(file.path, file.folder));
}

/**
 * One Copilot Chat session file (`.jsonl`, VS Code's log, or `.json`, the whole session) as a source: rebuilt into the
 * session as it stands and given as the lines made of it, with `folder` as its project. A file that cannot be read,
 * or holds no session, is a source that says so.
 */
export function copilotFileSource(path: string, folder: string | null): CopilotSource {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { path, agent: 'copilot-chat', unreadable: (error as Error).message };
  }
  const bytes = copilotSessionLines(copilotSessionState(text, path.endsWith('.jsonl')), folder);
  if (bytes === null) return { path, agent: 'copilot-chat', unreadable: 'no chat session in it' };
  return { path, agent: 'copilot-chat', bytes };
}
