import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const cache = new Map<string, string>();

/**
 * The project a working directory belongs to: its git root, or the directory itself outside git
 * (and for a directory that does not exist on this machine, as with a transcript copied from another).
 */
export function projectOf(cwd: string | null | undefined): string | null {
  if (!cwd) return null;
  const start = resolve(cwd);
  const known = cache.get(start);
  if (known !== undefined) return known;
  let root = start;
  let directory = start;
  for (;;) {
    if (existsSync(join(directory, '.git'))) {
      root = directory;
      break;
    }
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  if (!isDirectory(start)) root = start;
  cache.set(start, root);
  return root;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
