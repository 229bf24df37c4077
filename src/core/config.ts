import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join, resolve } from 'node:path';
import type { ChatApi } from './chat.ts';
import { RememError } from './errors.ts';
import { defaultParams, type Params } from './params.ts';

// The hook reads the defaults here before any config is resolved (its deadline), without the core front door.
export { defaultParams };

export type SpaceName = 'hashed' | 'ollama' | 'openai';

export interface EmbedConfig {
  space: SpaceName;
  /** Base URL of the model server (Ollama or any OpenAI-compatible endpoint). */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** A local chat model sleep asks (`oneTry` makes the endpoint of one request). */
export interface ChatModelConfig {
  api: ChatApi;
  /** Base URL: Ollama's root for `ollama`, the endpoint's `/v1` for `openai`. */
  url: string;
  model: string;
  apiKey?: string;
  /** How long one answer may take: one lesson's wording, one yes or no. */
  timeoutMs: number;
}

/** A local chat model that words sleep's error and surprise lessons; none unless configured. */
export type WordingConfig = ChatModelConfig;

/**
 * The judge: a chat model asked at night whether a message the correction detector scored just under its
 * threshold corrects the agent. Off unless `REMEM_JUDGE=on` (or `judge.enabled`); the wording model's endpoint
 * unless the `judge` section names its own.
 */
export type JudgeConfig = ChatModelConfig;

/**
 * Cline and the forks that keep its format, by the name `remem setup` gives each, and the VS Code extension id under
 * which each keeps its tasks and settings (`globalStorage/<id>/`, docs/formats/cline.md).
 */
export const CLINE_EXTENSIONS = {
  cline: 'saoudrizwan.claude-dev',
  'roo-code': 'rooveterinaryinc.roo-cline',
  'kilo-code': 'kilocode.kilo-code',
} as const;

/** Everything a command needs to know about where and how it runs, resolved once and frozen. */
export interface Config {
  home: string;
  now?: string;
  /** Share of sessions held out from priming, 0–1. */
  holdout: number;
  embed: EmbedConfig;
  /** The wording model (`REMEM_WORDING`, else `wording` in config.json); null: lessons are worded deterministically. */
  wording: WordingConfig | null;
  /** The correction judge (`REMEM_JUDGE`, else `judge` in config.json); null: no candidate is kept or asked about. */
  judge: JudgeConfig | null;
  /** Claude Code's configuration folder (`CLAUDE_CONFIG_DIR`, else ~/.claude). */
  claudeDir: string;
  /** Codex's home (`CODEX_HOME`, else ~/.codex). */
  codexHome: string;
  /** Gemini CLI's folder (`$GEMINI_CLI_HOME/.gemini`, else ~/.gemini). */
  geminiDir: string;
  /** OpenCode's data folder (`$XDG_DATA_HOME/opencode`, else ~/.local/share/opencode), holding `opencode.db`. */
  opencodeDir: string;
  /**
   * Cursor's user folder, holding `globalStorage/state.vscdb` and `workspaceStorage/` (docs/formats/cursor.md):
   * `~/Library/Application Support/Cursor/User` on macOS, else `$XDG_CONFIG_HOME/Cursor/User` (~/.config).
   */
  cursorDir: string;
  /**
   * VS Code's user folder, holding the Copilot Chat sessions (docs/formats/copilot-chat.md):
   * `~/Library/Application Support/Code/User` on macOS, else `$XDG_CONFIG_HOME/Code/User` (~/.config).
   */
  vscodeDir: string;
  /**
   * Where the nightly run and a bare `remem ingest` look for aider's chat histories, which aider keeps in each project
   * (docs/formats/aider.md): history files or folders of projects (`REMEM_AIDER`, separated as `PATH` is, else
   * `aider` in config.json). None unless given.
   */
  aiderPaths: readonly string[];
  /** Continue's folder, holding `sessions/` (`CONTINUE_GLOBAL_DIR`, else ~/.continue). */
  continueDir: string;
  /**
   * Where they look for SpecStory's exports (docs/formats/specstory.md): `.specstory/history/` folders, projects or
   * folders of projects (`REMEM_SPECSTORY`, separated as `PATH` is, else `specstory` in config.json). None unless given.
   */
  specstoryPaths: readonly string[];
  /**
   * Where they look for transcripts kept as files, each file's agent told by its contents
   * (docs/formats/transcripts.md): files, or folders searched for them, as a repository its team commits its
   * transcripts to (`REMEM_TRANSCRIPTS`, separated as `PATH` is, else `transcripts` in config.json). None unless given.
   */
  transcriptPaths: readonly string[];
  userHome: string;
  params: Params;
  /** Diagnostics on stderr, even where a command is otherwise silent (a hook). */
  debug: boolean;
  /** The project an agent started Remem in (`CLAUDE_PROJECT_DIR`), when it said. */
  projectDir: string | null;
  /** The bearer token `remem share --commons` sends (`REMEM_COMMONS_TOKEN`, else `commonsToken` in config.json). */
  commonsToken?: string;
  /**
   * Peers `remem run` pulls gossip from: base URLs of other memories' `remem serve` (`REMEM_PEERS`, comma or
   * space separated, else `peers` in config.json). Kept as written; each is checked where it is used.
   */
  peers: readonly string[];
}

export interface Flags {
  home?: string;
}

interface FileConfig {
  holdout?: number;
  embed?: { space?: SpaceName; url?: string; model?: string; apiKey?: string; timeoutMs?: number };
  wording?: { api?: ChatApi | 'none'; url?: string; model?: string; apiKey?: string; timeoutMs?: number };
  judge?: {
    enabled?: boolean;
    api?: ChatApi;
    url?: string;
    model?: string;
    apiKey?: string;
    timeoutMs?: number;
  };
  params?: Record<string, unknown>;
  commonsToken?: string;
  peers?: string[];
  aider?: string[];
  specstory?: string[];
  transcripts?: string[];
}

/**
 * The schema of config.json. Built on first need: zod costs more to load than a hook may spend in
 * all, so it is required only when there is a config file to check.
 */
function fileSchema() {
  const { z } = createRequire(import.meta.url)('zod') as typeof import('zod');
  return z
    .object({
      holdout: z.number().min(0).max(1).optional(),
      embed: z
        .object({
          space: z.enum(['hashed', 'ollama', 'openai']).optional(),
          url: z.string().optional(),
          model: z.string().optional(),
          apiKey: z.string().optional(),
          timeoutMs: z.number().positive().optional(),
        })
        .optional(),
      wording: z
        .object({
          api: z.enum(['none', 'ollama', 'openai']).optional(),
          url: z.string().optional(),
          model: z.string().optional(),
          apiKey: z.string().optional(),
          timeoutMs: z.number().positive().optional(),
        })
        .optional(),
      judge: z
        .object({
          enabled: z.boolean().optional(),
          api: z.enum(['ollama', 'openai']).optional(),
          url: z.string().optional(),
          model: z.string().optional(),
          apiKey: z.string().optional(),
          timeoutMs: z.number().positive().optional(),
        })
        .optional(),
      params: z.record(z.string(), z.unknown()).optional(),
      commonsToken: z.string().optional(),
      peers: z.array(z.string()).optional(),
      aider: z.array(z.string()).optional(),
      specstory: z.array(z.string()).optional(),
      transcripts: z.array(z.string()).optional(),
    })
    .loose();
}

/** The user's home directory without HOME: node:os is loaded only then, as loading it costs a hook more than its use. */
function userHomeDir(): string {
  return (createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();
}

function readConfigFile(home: string): FileConfig {
  const path = join(home, 'config.json');
  if (!existsSync(path)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RememError('bad_config', `${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = fileSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RememError('bad_config', `${path}: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data as FileConfig;
}

function mergeDeep<T>(base: T, over: unknown): T {
  if (typeof base !== 'object' || base === null || typeof over !== 'object' || over === null) {
    return (over === undefined ? base : over) as T;
  }
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over as Record<string, unknown>)) {
    if (!(key in out)) continue; // unknown parameters are ignored, not invented
    out[key] = mergeDeep(out[key], value);
  }
  return out as T;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function parseHoldout(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'off') return 0;
  const share = Number(value);
  if (!Number.isFinite(share) || share < 0 || share > 1) {
    throw new RememError('bad_config', `REMEM_HOLDOUT must be a share between 0 and 1, or "off": ${value}`);
  }
  return share;
}

/**
 * The wording model: off unless `REMEM_WORDING` (or `wording.api`) names a wire, and then a model must be named —
 * there is no sensible default chat model to guess.
 */
function resolveWording(env: NodeJS.ProcessEnv, file: FileConfig, timeoutMs: number): WordingConfig | null {
  const api = env['REMEM_WORDING'] || file.wording?.api || 'none';
  if (api === 'none' || api === 'off') return null;
  if (api !== 'ollama' && api !== 'openai') {
    throw new RememError('bad_config', `REMEM_WORDING must be none, ollama or openai: ${api}`);
  }
  const model = env['REMEM_WORDING_MODEL'] || file.wording?.model;
  if (!model) {
    throw new RememError(
      'bad_config',
      `the ${api} wording model has no name: set REMEM_WORDING_MODEL or wording.model in config.json`,
    );
  }
  const defaultUrl = api === 'openai' ? 'http://127.0.0.1:11434/v1' : 'http://127.0.0.1:11434';
  const apiKey = env['REMEM_WORDING_API_KEY'] ?? file.wording?.apiKey;
  return {
    api,
    url: env['REMEM_WORDING_URL'] || file.wording?.url || defaultUrl,
    model,
    timeoutMs: file.wording?.timeoutMs ?? timeoutMs,
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}

/**
 * The judge: off unless `REMEM_JUDGE=on` (or `judge.enabled`); then each of its settings is the `judge` section's
 * (`REMEM_JUDGE_MODEL`, `REMEM_JUDGE_URL` over it), else the wording model's — a judge with no model is an error.
 */
function resolveJudge(
  env: NodeJS.ProcessEnv,
  file: FileConfig,
  wording: WordingConfig | null,
  timeoutMs: number,
): JudgeConfig | null {
  const switched = env['REMEM_JUDGE'];
  if (switched && switched !== 'on' && switched !== 'off') {
    throw new RememError('bad_config', `REMEM_JUDGE must be on or off: ${switched}`);
  }
  const enabled = switched ? switched === 'on' : file.judge?.enabled === true;
  if (!enabled) return null;
  const own = file.judge ?? {};
  const api = own.api ?? wording?.api;
  const model = env['REMEM_JUDGE_MODEL'] || own.model || wording?.model;
  if (!api || !model) {
    throw new RememError(
      'bad_config',
      'the judge is on but has no model: configure the wording model (REMEM_WORDING, REMEM_WORDING_MODEL) or judge.api and judge.model in config.json',
    );
  }
  const defaultUrl = api === 'openai' ? 'http://127.0.0.1:11434/v1' : 'http://127.0.0.1:11434';
  // The wording endpoint's URL and key go with its wire: a judge on another wire does not borrow them.
  const borrowed = wording && wording.api === api ? wording : null;
  const apiKey = own.apiKey ?? borrowed?.apiKey;
  return {
    api,
    url: env['REMEM_JUDGE_URL'] || own.url || borrowed?.url || defaultUrl,
    model,
    timeoutMs: own.timeoutMs ?? timeoutMs,
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}

function expandHome(path: string, userHome: string): string {
  return path.startsWith('~/') ? join(userHome, path.slice(2)) : resolve(path);
}

/** Defaults < REMEM_HOME/config.json < REMEM_* environment < flags. The only reader of the environment. */
export function resolveConfig(env: NodeJS.ProcessEnv = process.env, flags: Flags = {}): Config {
  const userHome = env['HOME'] || userHomeDir();
  const home = expandHome(flags.home ?? env['REMEM_HOME'] ?? join(userHome, '.remem'), userHome);
  const file = readConfigFile(home);
  const space = (env['REMEM_EMBED'] ?? file.embed?.space ?? 'hashed') as SpaceName;
  if (!['hashed', 'ollama', 'openai'].includes(space)) {
    throw new RememError('bad_config', `REMEM_EMBED must be hashed, ollama or openai: ${space}`);
  }
  const defaultUrl = space === 'openai' ? 'http://127.0.0.1:11434/v1' : 'http://127.0.0.1:11434';
  const apiKey = env['REMEM_EMBED_API_KEY'] ?? file.embed?.apiKey;
  const embed: EmbedConfig = {
    space,
    url: env['REMEM_EMBED_URL'] ?? file.embed?.url ?? defaultUrl,
    model: env['REMEM_EMBED_MODEL'] ?? file.embed?.model ?? 'qwen3-embedding:0.6b',
    timeoutMs: file.embed?.timeoutMs ?? 10_000,
    ...(apiKey === undefined ? {} : { apiKey }),
  };
  const now = env['REMEM_NOW'];
  const commonsToken = env['REMEM_COMMONS_TOKEN'] || file.commonsToken;
  const peersFromEnv = env['REMEM_PEERS']?.split(/[\s,]+/).filter(Boolean);
  const aiderFromEnv = env['REMEM_AIDER']?.split(delimiter).filter(Boolean);
  const specstoryFromEnv = env['REMEM_SPECSTORY']?.split(delimiter).filter(Boolean);
  const transcriptsFromEnv = env['REMEM_TRANSCRIPTS']?.split(delimiter).filter(Boolean);
  // Not cloned: what no override touches is the defaults themselves, frozen with the rest (they never change).
  const params = mergeDeep(defaultParams as Params, {
    ...file.params,
    ...(env['REMEM_HOOK_DEADLINE_MS'] ? { hook: { deadlineMs: Number(env['REMEM_HOOK_DEADLINE_MS']) } } : {}),
  });
  const wording = resolveWording(env, file, params.wording.timeoutMs);
  const config: Config = {
    home,
    holdout: parseHoldout(env['REMEM_HOLDOUT']) ?? file.holdout ?? defaultParams.holdoutShare,
    embed,
    wording,
    judge: resolveJudge(env, file, wording, params.judge.timeoutMs),
    claudeDir: expandHome(env['CLAUDE_CONFIG_DIR'] ?? join(userHome, '.claude'), userHome),
    codexHome: expandHome(env['CODEX_HOME'] ?? join(userHome, '.codex'), userHome),
    geminiDir: join(expandHome(env['GEMINI_CLI_HOME'] || userHome, userHome), '.gemini'),
    opencodeDir: join(
      expandHome(env['XDG_DATA_HOME'] || join(userHome, '.local', 'share'), userHome),
      'opencode',
    ),
    cursorDir: electronUserDir(env, userHome, 'Cursor'),
    vscodeDir: electronUserDir(env, userHome, 'Code'),
    aiderPaths: (aiderFromEnv ?? file.aider ?? []).map((path) => expandHome(path, userHome)),
    continueDir: expandHome(env['CONTINUE_GLOBAL_DIR'] || join(userHome, '.continue'), userHome),
    specstoryPaths: (specstoryFromEnv ?? file.specstory ?? []).map((path) => expandHome(path, userHome)),
    transcriptPaths: (transcriptsFromEnv ?? file.transcripts ?? []).map((path) => expandHome(path, userHome)),
    userHome,
    params,
    debug: Boolean(env['REMEM_DEBUG']),
    projectDir: env['CLAUDE_PROJECT_DIR'] || null,
    peers: peersFromEnv ?? file.peers ?? [],
    ...(now ? { now } : {}),
    ...(commonsToken ? { commonsToken } : {}),
  };
  return deepFreeze(config);
}

/** Where an Electron app (Cursor, VS Code) keeps its user folder: Electron's `appData` folder, then `<app>/User`. */
function electronUserDir(env: NodeJS.ProcessEnv, userHome: string, app: string): string {
  if (process.platform === 'darwin') return join(userHome, 'Library', 'Application Support', app, 'User');
  const appData = expandHome(env['XDG_CONFIG_HOME'] || join(userHome, '.config'), userHome);
  return join(appData, app, 'User');
}
