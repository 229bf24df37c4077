/** Where things live, resolved by the caller from `Config` (see `setupEnvFrom`). */
export interface SetupEnv {
  /** The user's home folder. */
  userHome: string;
  /** Claude Code's configuration folder (`CLAUDE_CONFIG_DIR`, else ~/.claude). */
  claudeDir: string;
  /** Codex's home (`CODEX_HOME`, else ~/.codex). */
  codexHome: string;
  /** VS Code's user folder, where Cline and its forks keep their settings (`globalStorage/<extension id>/settings/`). */
  vscodeDir: string;
  platform: NodeJS.Platform;
  /** REMEM_HOME: the setup manifest lives here. */
  rememHome: string;
}

export interface SetupOptions {
  /** Limit setup to these agents (names or aliases, plus `nightly` for the schedule). */
  agents?: string[];
  /** Wire Claude Code's and Codex's hooks to a running `remem serve` instead of spawning `remem prime`. */
  http?: { port: number; token: string };
  remove?: boolean;
  /** The remem binary: an absolute path when known, else `remem`. */
  binary: string;
  /** The memory folder the wired agents should use. */
  home: string;
}

export type AgentName =
  | 'claude-code'
  | 'codex'
  | 'cursor'
  | 'windsurf'
  | 'gemini'
  | 'claude-desktop'
  | 'cline'
  | 'roo-code'
  | 'kilo-code';

/** The nightly job is selected like an agent: `--agent nightly`. */
export const NIGHTLY = 'nightly';

/** One file setup writes, creates or deletes. `null` means the file does not exist. */
export interface FileChange {
  path: string;
  agent: string;
  before: string | null;
  after: string | null;
  description: string;
  /** Mode for a file created from nothing. */
  mode?: number;
  /** Where to copy `before` the first time this file is changed. */
  backup?: string;
  /** A backup made redundant by this change (the file is back to it byte for byte). */
  dropBackup?: string;
}

export interface Command {
  cmd: string;
  args: string[];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program; a program that cannot start answers code 127. Injected so tests can record. */
export interface CommandRunner {
  run(cmd: string, args: string[], input?: string): RunResult;
}

export type Scheduler = 'cron' | 'systemd' | 'launchd';

/** Installing or removing the nightly `remem run`. */
export interface ScheduleAction {
  scheduler: Scheduler;
  action: 'install' | 'remove';
  description: string;
  /** What the manifest records: the cron line, or the timer or plist path. */
  entry: string;
  /** Run before the files change (stopping a timer that is being removed). Failures are tolerated. */
  stop: Command[];
  files: FileChange[];
  /** Run after the files changed; a failure falls back (systemd → cron) or is reported. */
  start: Command[];
  /** cron: the marked line to have in the crontab, or null to take it out. */
  cronLine?: string | null;
  /** Taken when a start command fails. */
  fallback?: ScheduleAction;
}

export type AgentStatus = 'wire' | 'wired' | 'remove' | 'not wired' | 'not installed' | 'unavailable';

export interface AgentSummary {
  agent: string;
  installed: boolean;
  status: AgentStatus;
  detail: string;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** What setup added to one file, so that `--remove` takes out exactly that. */
export type Addition =
  | { kind: 'mcp'; value: JsonValue; previous?: JsonValue; createdParent: boolean }
  | { kind: 'hook'; event: string; group: JsonValue; createdEvent: boolean; createdParent: boolean }
  | { kind: 'toml'; block: string; prefix: string };

export interface FileRecord {
  agent: string;
  /** Setup created the file: removal deletes it when nothing else is left in it. */
  created: boolean;
  additions: Addition[];
}

export interface ScheduleRecord {
  scheduler: Scheduler;
  /** The cron line, or the unit or plist path. */
  entry: string;
  /** cron: there was no crontab before, so removal leaves none. */
  createdCrontab?: boolean;
}

export interface Manifest {
  version: 1;
  files: Record<string, FileRecord>;
  schedule?: ScheduleRecord;
}

export interface SetupPlan {
  remove: boolean;
  changes: FileChange[];
  schedule: ScheduleAction[];
  agents: AgentSummary[];
  notes: string[];
  manifestPath: string;
  /** The manifest once the changes are made; the schedule record is settled by `applySetup`. */
  manifest: Manifest;
}

export interface ScheduleOutcome {
  scheduler: Scheduler | null;
  action: 'install' | 'remove';
  ok: boolean;
  message: string;
}

export interface SetupResult {
  written: string[];
  deleted: string[];
  schedule: ScheduleOutcome[];
  warnings: string[];
}

export interface WiringStatus {
  agent: string;
  installed: boolean;
  wired: boolean;
  details: string[];
}
