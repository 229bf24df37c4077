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
}

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
    const bytes = specstorySessionLines(text, basename(file), projectOf(file));
    if (bytes === null)
      return { path: file, agent: 'specstory', unreadable: 'no message of the person in it' };
    return { path: file, agent: 'specstory', bytes };
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
