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
  return discoverCopilotSessions(userDir).map((file): CopilotSource => {
    let text: string;
    try {
      text = readFileSync(file.path, 'utf8');
    } catch (error) {
      return { path: file.path, agent: 'copilot-chat', unreadable: (error as Error).message };
    }
    const bytes = copilotSessionLines(copilotSessionState(text, file.path.endsWith('.jsonl')), file.folder);
    if (bytes === null)
      return { path: file.path, agent: 'copilot-chat', unreadable: 'no chat session in it' };
    return { path: file.path, agent: 'copilot-chat', bytes };
  });
}
