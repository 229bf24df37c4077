import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { CLINE_EXTENSIONS } from '../core/index.ts';
import { clineTaskLines, continueSessionLines, workspaceFolder } from '../stream/index.ts';
import { aiderSources } from './aider-sources.ts';
import { clineFolderOf } from './cline-sources.ts';
import { fileTime } from './continue-sources.ts';
import { copilotFileSource } from './copilot-sources.ts';
import { readers } from './parse-lines.ts';
import { isDirectory, projectOf } from './project.ts';
import { looksInto, walkFolder } from './project-files.ts';
import type { Source } from './source.ts';
import { specstorySources } from './specstory-sources.ts';

/** How much of a file is read to tell its format. */
const HEAD_BYTES = 64 * 1024;
/** How many of a JSON Lines file's first records are read to tell its agent. */
const HEAD_RECORDS = 20;
/** How deep under a folder named to ingest transcripts are looked for: a repository's own folders of them. */
const SEARCH_DEPTH = 6;
/**
 * The hidden folders looked into: those named for an agent or for SpecStory, where a team may keep its chats. Others
 * (`.git`, a home folder's `.cache` and `.npm`, thousands of JSON files that are no one's chat) are passed over; a
 * folder named is read whatever its name.
 */
const AGENT_FOLDERS = new Set([
  '.specstory',
  '.claude',
  '.codex',
  '.gemini',
  '.continue',
  '.cline',
  '.roo',
  '.kilocode',
  '.cursor',
]);

/**
 * The readers that tell their agent's JSON Lines records (`Reader.recognizes`), asked in turn whether a file's
 * records are their agent's: Claude Code's last, as its record types are the most common words.
 */
const JSON_LINES_READERS = Object.values(readers)
  .filter((reader) => reader.recognizes !== undefined)
  .sort((a, b) => Number(a.agent === 'claude-code') - Number(b.agent === 'claude-code'));

/**
 * Transcripts named by path rather than found where their agent keeps them (docs/formats/transcripts.md): a file
 * copied from another machine, or the transcripts a team commits to its repository. Each file's agent is told by
 * what it holds (of its name, only the extension), not by its place: Claude Code's and Codex's JSON Lines, a Gemini
 * CLI session, a Cline (Roo Code, Kilo Code) task's `ui_messages.json`, a Continue session, a Copilot Chat session of
 * VS Code, an aider history, a SpecStory export. A file named that is none of these is a source that says so; under a
 * folder named, files that are none are passed over.
 */
export function transcriptSources(path: string): Source[] {
  if (!isDirectory(path)) return sourcesOf(path, true);
  const sources = candidates(path).flatMap((file) => sourcesOf(file, false));
  return sources.length > 0
    ? sources
    : [{ path, agent: 'claude-code', unreadable: 'no transcript of an agent Remem reads under this folder' }];
}

/** The sources one file makes; `named`: the person named it, so a file of no known format is said, not passed over. */
function sourcesOf(file: string, named: boolean): Source[] {
  const refuse = (reason: string): Source[] =>
    named ? [{ path: file, agent: 'claude-code', unreadable: reason }] : [];
  let head: string;
  try {
    head = readHead(file);
  } catch (error) {
    return refuse((error as Error).message);
  }
  const name = basename(file);
  if (name.endsWith('.jsonl')) {
    if (COPILOT_LOG.test(head)) return copilotSource(file, refuse);
    const agent = jsonLinesAgent(head);
    return agent
      ? [{ path: file, agent }]
      : refuse('JSON Lines, but not a transcript of Claude Code, Codex, Gemini CLI or Copilot Chat');
  }
  if (name.endsWith('.md')) {
    if (/^# aider chat started at /m.test(head)) return aiderSources(file);
    const exported = specstorySources(file);
    return exported.some((source) => source.unreadable === undefined)
      ? exported
      : refuse('Markdown, but neither an aider chat history nor a SpecStory export');
  }
  if (name.endsWith('.json')) return jsonSources(file, head, refuse);
  return refuse('not a transcript Remem reads (.jsonl, .json or .md)');
}

/** A Cline task's panel messages, a Continue session or a Copilot Chat session; else what `refuse` makes. */
function jsonSources(file: string, head: string, refuse: (reason: string) => Source[]): Source[] {
  const start = head.trimStart();
  const task = start.startsWith('[') && /"(?:say|ask)"\s*:/.test(start);
  const object = start.startsWith('{');
  const session = object && /"history"\s*:/.test(head) && /"sessionId"\s*:/.test(head);
  if (object && !session && COPILOT_SESSION.every((field) => field.test(head)))
    return copilotSource(file, refuse);
  if (!task && !session)
    return refuse(
      'JSON, but neither a Cline task (ui_messages.json), a Continue session nor a Copilot Chat session',
    );
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return refuse((error as Error).message);
  }
  if (task) {
    // The folder its first request names, else the project the file sits in (a task committed to its repository).
    const folder =
      clineFolderOf(join(dirname(file), 'api_conversation_history.json')) ?? projectOf(dirname(file));
    const bytes = clineTaskLines(text, folder, CLINE_EXTENSIONS.cline);
    return bytes ? [{ path: file, agent: 'cline', bytes }] : refuse('not a JSON array of panel messages');
  }
  const bytes = continueSessionLines(text, fileTime(file));
  return bytes
    ? [{ path: file, agent: 'continue', bytes }]
    : refuse('not a Continue session (no history array)');
}

/** VS Code's chat session log opens with the whole session (`ObjectMutationLog`'s first entry, kind 0). */
const COPILOT_LOG = /^\s*\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{/;
/**
 * What a whole Copilot Chat session (`.json`, before the log) holds in its head: its requests, and who asked or answered
 * them (an API's fixture may hold requests and a session id).
 */
const COPILOT_SESSION = [/"requests"\s*:/, /"(?:requesterUsername|responderUsername)"\s*:/];

/**
 * A Copilot Chat session file: its project the folder the `workspace.json` beside its `chatSessions/` names, as where
 * VS Code keeps it; else, copied or committed, the repository it sits in.
 */
function copilotSource(file: string, refuse: (reason: string) => Source[]): Source[] {
  const folder =
    (basename(dirname(file)) === 'chatSessions'
      ? workspaceFolder(join(dirname(dirname(file)), 'workspace.json'))
      : null) ?? projectOf(dirname(file));
  const source = copilotFileSource(file, folder);
  return source.unreadable === undefined ? [source] : refuse(source.unreadable);
}

/** The agent whose JSON Lines transcript this is, by its first records; null for any other file. */
function jsonLinesAgent(head: string): Source['agent'] | null {
  let records = 0;
  for (const line of head.split('\n')) {
    if (records >= HEAD_RECORDS) break;
    if (line.trim() === '') continue;
    records++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a line cut at the head's end, or one bad line among good ones
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    const reader = JSON_LINES_READERS.find((candidate) => candidate.recognizes?.(record));
    if (reader) return reader.agent as Source['agent'];
  }
  return null;
}

/** The files under a folder that may be transcripts, in a stable order. */
function candidates(root: string): string[] {
  const found: string[] = [];
  walkFolder(root, SEARCH_DEPTH, (entry, path) => {
    if (entry.isFile() && mayBeTranscript(path)) found.push(path);
    return looksInto(entry.name, AGENT_FOLDERS);
  });
  return found;
}

/**
 * Whether a file under a folder is worth opening: every JSON Lines file and JSON file but a package's own, the
 * aider history by its name, a Markdown file only in SpecStory's history folder.
 */
function mayBeTranscript(path: string): boolean {
  const name = basename(path);
  if (name.endsWith('.jsonl')) return true;
  if (name.endsWith('.json')) return !/^(?:package(?:-lock)?|tsconfig.*|composer|\..*)\.json$/.test(name);
  if (name === '.aider.chat.history.md') return true;
  return name.endsWith('.md') && path.includes(`${sep}.specstory${sep}history${sep}`);
}

function readHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, head, 0, HEAD_BYTES, 0);
    return head.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
