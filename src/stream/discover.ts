import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface FoundTranscript {
  path: string;
  agent: 'claude-code' | 'codex' | 'gemini-cli';
}

/** Folders under a Claude Code project that hold no transcripts. */
const CLAUDE_SKIPPED = new Set(['tool-results', 'memory']);

/**
 * The transcripts on this machine: `<claudeDir>/projects/**\/*.jsonl` (subagents' files included)
 * and `<codexHome>/sessions/**\/rollout-*.jsonl` and `<codexHome>/archived_sessions/`, and
 * `<geminiDir>/tmp/<project hash>/chats/session-*.jsonl`.
 * A missing folder yields nothing; the result is sorted by path.
 */
export function discoverTranscripts(opts: {
  claudeDirs: string[];
  codexDirs: string[];
  geminiDirs?: string[];
}): FoundTranscript[] {
  const found = new Map<string, FoundTranscript['agent']>();
  for (const dir of opts.claudeDirs) {
    walk(
      join(dir, 'projects'),
      (name) => name.endsWith('.jsonl'),
      CLAUDE_SKIPPED,
      (path) => found.set(path, 'claude-code'),
    );
  }
  for (const dir of opts.codexDirs) {
    for (const sub of ['sessions', 'archived_sessions']) {
      const isRollout = (name: string) => name.startsWith('rollout-') && name.endsWith('.jsonl');
      walk(join(dir, sub), isRollout, new Set(), (path) => found.set(path, 'codex'));
    }
  }
  for (const dir of opts.geminiDirs ?? []) {
    for (const project of subfolders(join(dir, 'tmp'))) {
      // Subagents' sessions sit in a folder named after their parent's full id, which the parent's file name
      // does not hold: they are not read (docs/formats/gemini-cli.md).
      const chats = join(dir, 'tmp', project, 'chats');
      const isSession = (name: string) => name.startsWith('session-') && name.endsWith('.jsonl');
      for (const name of files(chats)) if (isSession(name)) found.set(join(chats, name), 'gemini-cli');
    }
  }
  return [...found.keys()].sort().map((path) => ({ path, agent: found.get(path) ?? 'claude-code' }));
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

function files(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** Depth-first over a folder, following symbolic links but entering each real folder once. */
function walk(
  root: string,
  wanted: (name: string) => boolean,
  skipped: Set<string>,
  take: (path: string) => void,
) {
  const seen = new Set<string>();
  const visit = (dir: string) => {
    let real: string;
    let entries: Dirent[];
    try {
      real = realpathSync(dir);
      if (seen.has(real)) return;
      seen.add(real);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // missing or unreadable: nothing here
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(path);
          isDir = target.isDirectory();
          isFile = target.isFile();
        } catch {
          continue; // a dangling link
        }
      }
      if (isDir && !skipped.has(entry.name)) visit(path);
      else if (isFile && wanted(entry.name)) take(path);
    }
  };
  visit(root);
}
