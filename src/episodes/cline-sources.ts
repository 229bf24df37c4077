import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { CLINE_EXTENSIONS } from '../core/index.ts';
import { clineFolder, clineTaskLines, subfolders } from '../stream/index.ts';

/** A source of ingest.ts (`Source`), as this module makes them. */
interface ClineSource {
  path: string;
  agent: 'cline';
  bytes?: Buffer;
  unreadable?: string;
}

/** How much of a task's conversation with the model is read for the folder it names (its first request does). */
const FOLDER_BYTES = 256 * 1024;

/**
 * The tasks of Cline, Roo Code and Kilo Code under an editor's user folder (docs/formats/cline.md): one source a task,
 * its panel messages given as the lines made of them, its project the folder its first request names. A task that
 * cannot be read, or holds no message array, is a source that says so; the run warns and goes on.
 */
export function clineSources(userDir: string): ClineSource[] {
  const sources: ClineSource[] = [];
  for (const extension of Object.values(CLINE_EXTENSIONS)) {
    const tasks = join(userDir, 'globalStorage', extension, 'tasks');
    for (const task of subfolders(tasks).sort()) {
      const path = join(tasks, task, 'ui_messages.json');
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        // A task folder without its messages (a task opened and left at once) has nothing to read.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        sources.push({ path, agent: 'cline', unreadable: (error as Error).message });
        continue;
      }
      const bytes = clineTaskLines(
        text,
        clineFolderOf(join(tasks, task, 'api_conversation_history.json')),
        extension,
      );
      sources.push(
        bytes === null
          ? { path, agent: 'cline', unreadable: 'not a JSON array of panel messages' }
          : { path, agent: 'cline', bytes },
      );
    }
  }
  return sources;
}

/** The folder a task's first request names, read from the head of its conversation with the model; null if none. */
export function clineFolderOf(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(FOLDER_BYTES);
    const read = readSync(fd, head, 0, FOLDER_BYTES, 0);
    // JSON escapes the text: a folder's backslashes (Windows) are doubled there.
    return clineFolder(head.subarray(0, read).toString('utf8'))?.replace(/\\\\/g, '\\') ?? null;
  } finally {
    closeSync(fd);
  }
}
