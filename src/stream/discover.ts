import { type Dirent, existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** One Cursor user folder's stores (docs/formats/cursor.md). */
export interface CursorStores {
  /** `globalStorage/state.vscdb`, where the chats are. */
  global: string;
  /** Each workspace's `state.vscdb`, and the folder its `workspace.json` names (null for a remote or multi-root one). */
  workspaces: { store: string; folder: string | null }[];
}

/**
 * Cursor's stores under a user folder (`~/.config/Cursor/User`, `~/Library/Application Support/Cursor/User`): the
 * global `state.vscdb` when there is one, and the workspaces beside it. Null when there is no global store.
 */
export function discoverCursorStores(userDir: string): CursorStores | null {
  const global = join(userDir, 'globalStorage', 'state.vscdb');
  if (!existsSync(global)) return null;
  const workspaces: CursorStores['workspaces'] = [];
  const root = join(userDir, 'workspaceStorage');
  for (const hash of subfolders(root).sort()) {
    const store = join(root, hash, 'state.vscdb');
    if (!existsSync(store)) continue;
    workspaces.push({ store, folder: workspaceFolder(join(root, hash, 'workspace.json')) });
  }
  return { global, workspaces };
}

/** One Copilot Chat session file of VS Code, and the folder of the workspace it was held in (null: no folder). */
export interface CopilotSessionFile {
  path: string;
  folder: string | null;
}

/**
 * VS Code's chat session files under its user folder (docs/formats/copilot-chat.md):
 * `workspaceStorage/<hash>/chatSessions/<id>.json[l]`, each workspace's folder named by its `workspace.json`, and
 * `globalStorage/emptyWindowChatSessions/<id>.json[l]` for windows with no folder. Where a session has both a log
 * (`.jsonl`) and a whole document (`.json`), the log is the newer and is the one read. Sorted by path.
 */
export function discoverCopilotSessions(userDir: string): CopilotSessionFile[] {
  const found: CopilotSessionFile[] = [];
  const take = (dir: string, folder: string | null) => {
    const names = files(dir).filter((name) => /\.jsonl?$/.test(name));
    const logs = new Set(names.filter((name) => name.endsWith('.jsonl')));
    for (const name of names) {
      if (name.endsWith('.json') && logs.has(`${name}l`)) continue;
      found.push({ path: join(dir, name), folder });
    }
  };
  const root = join(userDir, 'workspaceStorage');
  for (const hash of subfolders(root)) {
    const sessions = join(root, hash, 'chatSessions');
    if (existsSync(sessions)) take(sessions, workspaceFolder(join(root, hash, 'workspace.json')));
  }
  take(join(userDir, 'globalStorage', 'emptyWindowChatSessions'), null);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The local folder a `workspace.json` names (`{"folder": "file:///…"}`), or null. */
export function workspaceFolder(path: string): string | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const uri =
      typeof parsed === 'object' && parsed !== null ? (parsed as { folder?: unknown }).folder : undefined;
    return typeof uri === 'string' && uri.startsWith('file://') ? fileURLToPath(uri) : null;
  } catch {
    return null;
  }
}

/** The folders in `dir` (links to folders too), in no order; none when it cannot be listed. */
export function subfolders(dir: string): string[] {
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
