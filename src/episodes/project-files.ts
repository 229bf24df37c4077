import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** How deep under a folder named to ingest an agent's files are looked for: projects under a folder of projects. */
const SEARCH_DEPTH = 3;
/** Folders never looked into: what packages, builds and virtual environments hold is no one's chat. */
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'target', 'venv', '__pycache__']);
const NO_HIDDEN: ReadonlySet<string> = new Set();

/**
 * Whether a search for an agent's files walks into the folder `name`: never a package's, a build's or a virtual
 * environment's, and a hidden one only when `hidden` names it.
 */
export function looksInto(name: string, hidden: ReadonlySet<string> = NO_HIDDEN): boolean {
  return !SKIPPED.has(name) && (!name.startsWith('.') || hidden.has(name));
}

/**
 * The entries named `name` under `root` (itself included), `SEARCH_DEPTH` folders down, in a stable order: files or
 * folders as `kind` says. Hidden folders are not looked into, but a hidden `name` is found. A folder that cannot be
 * listed holds nothing Remem can read.
 */
export function findInProjects(root: string, name: string, kind: 'file' | 'folder'): string[] {
  const found: string[] = [];
  walkFolder(root, SEARCH_DEPTH, (entry, path) => {
    if (entry.name === name && (kind === 'file' ? entry.isFile() : entry.isDirectory())) {
      found.push(path);
      return false;
    }
    return entry.isDirectory() && looksInto(entry.name);
  });
  return found;
}

/**
 * Each entry under `root`, `depth` folders down, in a stable order (by name), told to `visit`; a folder is walked
 * into when `visit` says so. A folder that cannot be listed holds nothing.
 */
export function walkFolder(
  root: string,
  depth: number,
  visit: (entry: Dirent, path: string) => boolean,
): void {
  const walk = (dir: string, level: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, entry.name);
      if (visit(entry, path) && entry.isDirectory() && level < depth) walk(path, level + 1);
    }
  };
  walk(root, 0);
}
