import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { aiderSessionLines } from '../stream/index.ts';
import { isDirectory } from './project.ts';
import { findInProjects } from './project-files.ts';

/** A source of ingest.ts (`Source`), as this module makes them. */
interface AiderSource {
  path: string;
  agent: 'aider';
  bytes?: Buffer;
  unreadable?: string;
}

/** The name aider gives the chat history it keeps in the folder it runs in (`--chat-history-file`). */
export const AIDER_HISTORY = '.aider.chat.history.md';

/**
 * Aider's runs in a history file, or in every history under a folder (docs/formats/aider.md): one source a run, given
 * as the lines made of it, its project the folder the file is in. A file that cannot be read, or holds no prompt, is a
 * source that says so; the run warns and goes on.
 */
export function aiderSources(path: string): AiderSource[] {
  return historiesAt(path).flatMap((file): AiderSource[] => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      return [{ path: file, agent: 'aider', unreadable: (error as Error).message }];
    }
    const sessions = aiderSessionLines(text, dirname(file));
    if (sessions.length === 0) return [{ path: file, agent: 'aider', unreadable: 'no aider prompt in it' }];
    return sessions.map(({ started, bytes }) => ({ path: `${file}#${started}`, agent: 'aider', bytes }));
  });
}

/** The history files a path names: the file itself, or those under a folder of projects. */
function historiesAt(path: string): string[] {
  if (isDirectory(path)) return findInProjects(path, AIDER_HISTORY, 'file');
  return existsSync(path) ? [path] : [];
}
