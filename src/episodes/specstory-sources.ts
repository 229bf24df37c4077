import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { specstorySessionLines } from '../stream/index.ts';
import { isDirectory } from './project.ts';
import { findInProjects } from './project-files.ts';

/** A source of ingest.ts (`Source`), as this module makes them. */
interface SpecstorySource {
  path: string;
  agent: 'specstory';
  bytes?: Buffer;
  unreadable?: string;
  sameAs?: { agent: 'claude-code' | 'codex'; session: string };
}

/**
 * The agents whose own transcripts Remem reads, as SpecStory's command line names them in an export's session
 * comment, where the id it gives is the one those transcripts are read under (Claude Code's file name, Codex's
 * rollout id).
 */
const COPIED: Record<string, 'claude-code' | 'codex' | undefined> = {
  'Claude Code': 'claude-code',
  'Codex CLI': 'codex',
};

/**
 * SpecStory's exports (docs/formats/specstory.md): a `.md` file, a `.specstory/history/` folder, a project holding
 * one, or a folder of projects. One source a file, given as the lines made of it, its project the folder that holds
 * `.specstory/`. A file that cannot be read, or holds no message of the person's, is a source that says so; the run
 * warns and goes on.
 */
export function specstorySources(path: string): SpecstorySource[] {
  return exportsAt(path).map((file): SpecstorySource => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      return { path: file, agent: 'specstory', unreadable: (error as Error).message };
    }
    const read = specstorySessionLines(text, basename(file), projectOf(file));
    if (read === null)
      return { path: file, agent: 'specstory', unreadable: 'no message of the person in it' };
    const agent = COPIED[read.provider];
    return {
      path: file,
      agent: 'specstory',
      bytes: read.bytes,
      ...(agent && read.id !== '' ? { sameAs: { agent, session: read.id } } : {}),
    };
  });
}

/** The project of an export: the folder holding `.specstory/`, else the folder the file is in. */
function projectOf(file: string): string {
  const at = file.lastIndexOf(`${sep}.specstory${sep}`);
  return at < 0 ? dirname(file) : file.slice(0, at);
}

/** The exports a path names, in a stable order. */
function exportsAt(path: string): string[] {
  if (!isDirectory(path)) return path.endsWith('.md') ? [path] : [];
  const name = basename(path);
  const folders =
    name === 'history' && basename(dirname(path)) === '.specstory'
      ? [path]
      : name === '.specstory'
        ? [join(path, 'history')]
        : findInProjects(path, '.specstory', 'folder').map((found) => join(found, 'history'));
  return folders.flatMap((folder) => {
    try {
      return readdirSync(folder)
        .filter((entry) => entry.endsWith('.md'))
        .sort()
        .map((entry) => join(folder, entry));
    } catch {
      return []; // a .specstory folder with no history/ holds no export
    }
  });
}
