import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CLINE_EXTENSIONS, RememError } from '../core/index.ts';
import { type AgentName, type JsonObject, NIGHTLY, type SetupEnv } from './types.ts';

export type HookEvent = 'UserPromptSubmit' | 'Stop' | 'PreToolUse' | 'SessionEnd';

/** Seconds. SessionEnd shares a short budget in Claude Code; PreToolUse runs before every tool call. */
const hookTimeouts: Record<HookEvent, number> = {
  UserPromptSubmit: 10,
  Stop: 10,
  PreToolUse: 5,
  SessionEnd: 5,
};

/** One file an agent reads, and what Remem puts in it. */
export type AgentFile =
  | { kind: 'mcp-json'; path: string; stdioType: boolean }
  | { kind: 'hooks-json'; path: string; events: readonly HookEvent[] }
  | { kind: 'codex-toml'; path: string };

export interface AgentSpec {
  name: AgentName;
  aliases: readonly string[];
  label: string;
  /** The folder whose presence means the agent is installed; null where the agent does not run. */
  folder(env: SetupEnv): string | null;
  files(env: SetupEnv): AgentFile[];
}

/** Claude Code keeps `.claude.json` in the home folder, or inside `CLAUDE_CONFIG_DIR` when that is set. */
export function claudeJsonPath(env: SetupEnv): string {
  const defaultDir = join(env.userHome, '.claude');
  if (env.claudeDir !== defaultDir) return join(env.claudeDir, '.claude.json');
  const inHome = join(env.userHome, '.claude.json');
  const inDir = join(defaultDir, '.claude.json');
  return !existsSync(inHome) && existsSync(inDir) ? inDir : inHome;
}

function claudeDesktopFolder(env: SetupEnv): string | null {
  if (env.platform === 'darwin') return join(env.userHome, 'Library', 'Application Support', 'Claude');
  if (env.platform === 'linux') return join(env.userHome, '.config', 'Claude');
  return null;
}

function mcpFile(folder: string | null, name: string): AgentFile[] {
  return folder === null ? [] : [{ kind: 'mcp-json', path: join(folder, name), stdioType: false }];
}

/**
 * Cline and its forks, in VS Code: each keeps its MCP servers in its own storage, `settings/<file>` (docs/formats/cline.md),
 * under the key Claude Desktop's file uses. Remem reads their tasks from the same storage.
 */
function clineSpec(
  name: keyof typeof CLINE_EXTENSIONS,
  label: string,
  file: string,
  aliases: string[],
): AgentSpec {
  const folder = (env: SetupEnv) => join(env.vscodeDir, 'globalStorage', CLINE_EXTENSIONS[name]);
  return { name, aliases, label, folder, files: (env) => mcpFile(join(folder(env), 'settings'), file) };
}

export const agentSpecs: readonly AgentSpec[] = [
  {
    name: 'claude-code',
    aliases: ['claude', 'claude_code'],
    label: 'Claude Code',
    folder: (env) => env.claudeDir,
    files: (env) => [
      { kind: 'mcp-json', path: claudeJsonPath(env), stdioType: true },
      {
        kind: 'hooks-json',
        path: join(env.claudeDir, 'settings.json'),
        events: ['UserPromptSubmit', 'Stop', 'PreToolUse', 'SessionEnd'],
      },
    ],
  },
  {
    name: 'codex',
    aliases: ['codex-cli'],
    label: 'Codex',
    folder: (env) => env.codexHome,
    files: (env) => [
      { kind: 'codex-toml', path: join(env.codexHome, 'config.toml') },
      {
        kind: 'hooks-json',
        path: join(env.codexHome, 'hooks.json'),
        events: ['UserPromptSubmit', 'Stop', 'PreToolUse'],
      },
    ],
  },
  {
    name: 'cursor',
    aliases: [],
    label: 'Cursor',
    folder: (env) => join(env.userHome, '.cursor'),
    files: (env) => mcpFile(join(env.userHome, '.cursor'), 'mcp.json'),
  },
  {
    name: 'windsurf',
    aliases: [],
    label: 'Windsurf',
    folder: (env) => join(env.userHome, '.codeium', 'windsurf'),
    files: (env) => mcpFile(join(env.userHome, '.codeium', 'windsurf'), 'mcp_config.json'),
  },
  {
    name: 'gemini',
    aliases: ['gemini-cli'],
    label: 'Gemini CLI',
    folder: (env) => join(env.userHome, '.gemini'),
    files: (env) => mcpFile(join(env.userHome, '.gemini'), 'settings.json'),
  },
  {
    name: 'claude-desktop',
    aliases: ['desktop'],
    label: 'Claude Desktop',
    folder: claudeDesktopFolder,
    files: (env) => mcpFile(claudeDesktopFolder(env), 'claude_desktop_config.json'),
  },
  clineSpec('cline', 'Cline', 'cline_mcp_settings.json', []),
  clineSpec('roo-code', 'Roo Code', 'mcp_settings.json', ['roo', 'roo-cline']),
  clineSpec('kilo-code', 'Kilo Code', 'mcp_settings.json', ['kilo']),
];

/** The agents (and `nightly`) a run covers: all of them, or those named. */
export function selectAgents(names: readonly string[] | undefined): Set<string> {
  if (names === undefined || names.length === 0)
    return new Set([...agentSpecs.map((spec) => spec.name), NIGHTLY]);
  const selected = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    const spec = agentSpecs.find((candidate) => candidate.name === name || candidate.aliases.includes(name));
    if (spec) selected.add(spec.name);
    else if (name === NIGHTLY || name === 'schedule') selected.add(NIGHTLY);
    else {
      const known = [...agentSpecs.map((candidate) => candidate.name), NIGHTLY].join(', ');
      throw new RememError('unknown_agent', `unknown agent "${raw}"; known: ${known}`);
    }
  }
  return selected;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface Wanted {
  binary: string;
  home: string;
  /** The memory folder is not the default one, so wired commands must name it. */
  customHome: boolean;
  http?: { port: number; token: string };
}

/** A word the shell reads back as itself. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function primeCommand(wanted: Wanted): string {
  const home = wanted.customHome ? ` --home ${shellWord(wanted.home)}` : '';
  return `${shellWord(wanted.binary)} prime${home}`;
}

export function mcpEntry(wanted: Wanted, stdioType: boolean): JsonObject {
  return {
    ...(stdioType ? { type: 'stdio' } : {}),
    command: wanted.binary,
    args: ['mcp'],
    ...(wanted.customHome ? { env: { REMEM_HOME: wanted.home } } : {}),
  };
}

export function hookHandler(wanted: Wanted, event: HookEvent): JsonObject {
  const timeout = hookTimeouts[event];
  if (wanted.http) {
    return {
      type: 'http',
      url: `http://127.0.0.1:${wanted.http.port}/hooks/prime`,
      headers: { Authorization: `Bearer ${wanted.http.token}` },
      timeout,
    };
  }
  return { type: 'command', command: primeCommand(wanted), timeout };
}

const leadingWord = /^\s*(?:'([^']*)'|"([^"]*)"|(\S+))\s+prime(?:\s|$)/;

/** Remem's hook handler: `remem prime` (any path to a remem binary, or the given one) or the HTTP prime route. */
export function isRememHandler(handler: unknown, binary?: string): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  const { type, command, url } = handler as Record<string, unknown>;
  if (type === 'http') return typeof url === 'string' && /\/hooks\/prime(?:[?#].*)?$/.test(url);
  if (typeof command !== 'string') return false;
  const match = leadingWord.exec(command);
  if (!match) return false;
  const word = match[1] ?? match[2] ?? match[3] ?? '';
  return word === binary || /^remem(?:\.js|\.cmd|\.exe)?$/.test(basename(word));
}
