import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { aiderSessionLines } from '../stream/index.ts';

/** A source of ingest.ts (`Source`), as this module makes them. */
interface AiderSource {
  path: string;
  agent: 'aider';
  bytes?: Buffer;
  unreadable?: string;
}

/** The name aider gives the chat history it keeps in the folder it runs in (`--chat-history-file`). */
export const AIDER_HISTORY = '.aider.chat.history.md';

/** How deep under a folder named to ingest the histories are looked for: projects under a folder of projects. */
const SEARCH_DEPTH = 3;
/** Folders never looked into: what packages, builds and virtual environments hold is no one's chat. */
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'target', 'venv', '__pycache__']);

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

/** The history files a path names: the file itself, or those under a folder, in a stable order. */
function historiesAt(path: string): string[] {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    return [];
  }
  if (!isFolder) return [path];
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a folder that cannot be listed holds nothing Remem can read
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.isFile() && entry.name === AIDER_HISTORY) found.push(join(dir, entry.name));
      else if (
        entry.isDirectory() &&
        depth < SEARCH_DEPTH &&
        !entry.name.startsWith('.') &&
        !SKIPPED.has(entry.name)
      )
        walk(join(dir, entry.name), depth + 1);
    }
  };
  walk(path, 0);
  return found;
}
