import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RememError, UsageError } from '../core/index.ts';
import { type IngestReport, ingest, ingestFromRaw } from '../episodes/index.ts';
import type { TurnParser } from '../episodes/light.ts';
import { openStore } from '../store/index.ts';
import { rulesToEvents } from '../stream/index.ts';
import type { Context } from './command.ts';
import { progressFor } from './progress.ts';

/** Runs an ingest as the flags ask: the named sources, or, with none named, every agent found. */
export async function runIngest(
  context: Context,
  flags: IngestFlags,
  home = context.config.home,
  /** One opened ahead, its worker booting while ingest loads: the run closes it, and so does its opener, in case the run never starts. */
  parser?: TurnParser,
): Promise<IngestReport> {
  checkIngestFlags(context, flags);
  const store = openStore(home);
  const progress = await progressFor(context, 'ingest');
  try {
    const now = context.clock.iso();
    // Near-threshold messages are kept for the judge only when one is configured: otherwise nothing changes.
    const judge = context.config.judge ? { judgeBand: context.config.params.judge.band } : {};
    if (flags.fromRaw) return ingestFromRaw(store, { now, onProgress: progress.update, ...judge });
    const named = NAMED_SOURCES.some((flag) => flags[flag].length > 0);
    const stdinEvents = flags.events.includes('-') ? await context.readStdin() : undefined;
    for (const file of flags.events) {
      if (file !== '-' && !existsSync(file))
        throw new RememError('not_found', `no such events file: ${file}`);
    }
    const importedRules = flags.import.map((named) => {
      const file = resolve(named);
      if (!existsSync(file)) throw new RememError('not_found', `no such rules file: ${named}`);
      return { file, bytes: rulesToEvents(readFileSync(file, 'utf8'), file, dirname(file)) };
    });
    return await ingest(store, {
      now,
      claudeDirs: named ? flags.claude.map((dir) => resolve(dir)) : [context.config.claudeDir],
      codexDirs: named ? flags.codex.map((dir) => resolve(dir)) : [context.config.codexHome],
      geminiDirs: named ? flags.gemini.map((dir) => resolve(dir)) : [context.config.geminiDir],
      opencodeDirs: named ? flags.opencode.map((dir) => resolve(dir)) : [context.config.opencodeDir],
      cursorDirs: named ? flags.cursor.map((dir) => resolve(dir)) : [context.config.cursorDir],
      vscodeDirs: named ? flags.vscode.map((dir) => resolve(dir)) : [context.config.vscodeDir],
      continueDirs: named ? flags.continue.map((dir) => resolve(dir)) : [context.config.continueDir],
      aiderPaths: named ? flags.aider.map((path) => resolve(path)) : [...context.config.aiderPaths],
      specstoryPaths: named
        ? flags.specstory.map((path) => resolve(path))
        : [...context.config.specstoryPaths],
      transcriptPaths: named
        ? flags.transcript.map((path) => resolve(path))
        : [...context.config.transcriptPaths],
      eventFiles: flags.events.filter((file) => file !== '-').map((file) => resolve(file)),
      ...(stdinEvents ? { stdinEvents } : {}),
      importedRules,
      onProgress: progress.update,
      ...(parser ? { parser } : {}),
      ...judge,
    });
  } finally {
    progress.stop();
    store.close();
  }
}

export function formatIngestReport(report: IngestReport): string {
  const lines = [
    `Read ${report.filesRead} of ${report.filesSeen} files (${report.filesUnchanged} unchanged${
      report.filesRestarted ? `, ${report.filesRestarted} read again from the start` : ''
    }): ${formatBytes(report.bytesRead)}, ${report.linesRead} lines.`,
    `Sessions derived: ${report.sessionsDerived}. Episodes: +${report.episodesAdded} new, ${report.episodesChanged} changed, ${report.episodesRemoved} removed; events stored: ${report.eventsStored}.`,
  ];
  if (report.warningCount > 0) {
    lines.push(`${report.warningCount} lines skipped:`);
    for (const warning of report.warnings) {
      lines.push(`  ${warning.file}${warning.line ? `:${warning.line}` : ''}: ${warning.reason}`);
    }
    if (report.warningCount > report.warnings.length) {
      lines.push(`  … and ${report.warningCount - report.warnings.length} more (remem status lists them)`);
    }
  }
  return lines.join('\n');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export interface IngestFlags {
  claude: string[];
  codex: string[];
  gemini: string[];
  opencode: string[];
  /** Cursor user folders (holding globalStorage/state.vscdb). */
  cursor: string[];
  /** VS Code user folders (holding workspaceStorage/, where Copilot Chat keeps its sessions). */
  vscode: string[];
  /** Continue's folders (holding sessions/). */
  continue: string[];
  /** Aider chat histories, or folders holding them. */
  aider: string[];
  /** SpecStory exports, or folders holding them. */
  specstory: string[];
  /** Transcripts of any agent read from a file (or found under a folder), each file's format told by its contents. */
  transcript: string[];
  events: string[];
  /** Rules files (CLAUDE.md, AGENTS.md, .cursorrules) read as the person's notes for the project they sit in. */
  import: string[];
  fromRaw: boolean;
}

/** The flags that name what to read: with any of them given, only what they name is read. */
const NAMED_SOURCES = [
  'claude',
  'codex',
  'gemini',
  'opencode',
  'cursor',
  'vscode',
  'continue',
  'aider',
  'specstory',
  'transcript',
  'events',
  'import',
] as const satisfies readonly (keyof IngestFlags)[];

export function checkIngestFlags(context: Context, flags: IngestFlags): void {
  if (flags.fromRaw && NAMED_SOURCES.some((flag) => flags[flag].length > 0))
    throw new UsageError('--from-raw reads only the archive; it takes no other source');
  if (flags.events.filter((file) => file === '-').length > 1)
    throw new UsageError('--events - may be given once');
  if (flags.events.includes('-') && context.stdinIsTTY) {
    throw new RememError('no_stdin', '--events - reads events from standard input, which is a terminal');
  }
}

/** The agent folders a person named on the command line: each must be there, and be the agent's own. */
export function checkNamedFolders(
  flags: Pick<
    IngestFlags,
    | 'claude'
    | 'codex'
    | 'gemini'
    | 'opencode'
    | 'cursor'
    | 'vscode'
    | 'continue'
    | 'aider'
    | 'specstory'
    | 'transcript'
  >,
): void {
  for (const dir of flags.claude) checkAgentFolder(dir, '--claude', 'projects', '~/.claude');
  for (const dir of flags.codex) checkAgentFolder(dir, '--codex', 'sessions', '~/.codex');
  for (const dir of flags.gemini) checkAgentFolder(dir, '--gemini', 'tmp', '~/.gemini');
  for (const dir of flags.cursor) {
    checkAgentFolder(dir, '--cursor', 'globalStorage', '~/.config/Cursor/User');
  }
  for (const dir of flags.vscode) {
    checkAgentFolder(dir, '--vscode', 'workspaceStorage', '~/.config/Code/User');
  }
  for (const dir of flags.opencode) {
    if (!existsSync(resolve(dir))) throw new RememError('not_found', `--opencode ${dir}: no such folder`);
  }
  for (const dir of flags.continue) checkAgentFolder(dir, '--continue', 'sessions', '~/.continue');
  for (const path of flags.aider) checkAiderPath(path);
  for (const path of flags.specstory) checkSpecstoryPath(path);
  for (const path of flags.transcript) {
    if (!existsSync(resolve(path)))
      throw new RememError('not_found', `--transcript ${path}: no such file or folder`);
  }
}

/** A SpecStory path named on the command line must be there, and be a `.md` export or a folder searched for them. */
function checkSpecstoryPath(path: string): void {
  const full = resolve(path);
  if (!existsSync(full)) throw new RememError('not_found', `--specstory ${path}: no such file or folder`);
  if (statSync(full).isDirectory() || full.endsWith('.md')) return;
  throw new RememError(
    'not_found',
    `--specstory ${path}: not a SpecStory export (a .md file) nor a folder holding them`,
  );
}

/**
 * An aider history named on the command line must be there; a file must be a history, so that a project's other
 * Markdown is never read as a chat. A folder is searched for histories (`aiderSources`).
 */
function checkAiderPath(path: string): void {
  const full = resolve(path);
  if (!existsSync(full)) throw new RememError('not_found', `--aider ${path}: no such file or folder`);
  if (statSync(full).isDirectory() || basename(full).endsWith('.aider.chat.history.md')) return;
  throw new RememError(
    'not_found',
    `--aider ${path}: not an aider chat history; --aider takes a .aider.chat.history.md file or a folder holding one`,
  );
}

/**
 * A folder named on the command line must be the agent's own: a missing one, or the folder one level too deep
 * (`~/.claude/projects` for `~/.claude`), would read nothing and say only "Read 0 of 0 files".
 */
function checkAgentFolder(dir: string, flag: string, inner: string, example: string): void {
  const path = resolve(dir);
  if (!existsSync(path)) throw new RememError('not_found', `${flag} ${dir}: no such folder`);
  if (!statSync(path).isDirectory()) throw new RememError('not_found', `${flag} ${dir}: not a folder`);
  if (existsSync(join(path, inner))) return;
  if (basename(path) === inner) {
    throw new RememError(
      'not_found',
      `${flag} ${dir}: this is the ${inner}/ folder itself; pass the folder that holds it: ${flag} ${dirname(path)} (as ${example})`,
    );
  }
  throw new RememError(
    'not_found',
    `${flag} ${dir}: holds no ${inner}/ folder, so nothing would be read; ${flag} takes the agent's own folder (as ${example})`,
  );
}
