import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  clearStaleSession,
  confirmedCandidates,
  deleteTurnsOfFile,
  finishIngestRun,
  insertEpisodeOnce,
  insertTurnsJson,
  keepTempInMemory,
  listRawFilesOfSession,
  markSessionStale,
  readOpencodeSessions,
  recordIngestWarning,
  replaceSessionCandidates,
  replaceSessionEpisodes,
  replaceSessionOffers,
  type Store,
  saveRawFile,
  staleSessions,
  startIngestRun,
  turnsOfFile,
} from '../store/index.ts';
import {
  assemble,
  discoverTranscripts,
  openCompressor,
  opencodeSessionLines,
  releaseRead,
  type Turn,
} from '../stream/index.ts';
import { aiderSources } from './aider-sources.ts';
import { clineSources } from './cline-sources.ts';
import { continueSources } from './continue-sources.ts';
import { copilotSources } from './copilot-sources.ts';
import { cursorSources } from './cursor-sources.ts';
import { type Derived, deriveEpisodes, WIDEST_BAND } from './derive.ts';
import type { eventToEpisode } from './events.ts';
import { correctionThreshold } from './model/correction.ts';
import { type ParsedTurns, parseBytes, sessionOf } from './parse-lines.ts';
import { type Prepared, prepareSource, readAhead } from './read-sources.ts';
import type { IngestWarning, Source } from './source.ts';
import { specstorySources } from './specstory-sources.ts';
import { transcriptSources } from './transcript-sources.ts';
import { openTurnParser, type TurnParser } from './turn-parser.ts';

export interface IngestOptions {
  now: string;
  /** Claude Code configuration folders (each holding `projects/`). */
  claudeDirs: string[];
  /** Codex homes (each holding `sessions/`). */
  codexDirs: string[];
  /** Gemini CLI folders (each holding `tmp/<project hash>/chats/`). */
  geminiDirs?: string[];
  /** OpenCode data folders (each holding `opencode.db`). */
  opencodeDirs?: string[];
  /** Cursor user folders (each holding `globalStorage/state.vscdb`), read too for the tasks of Cline and its forks. */
  cursorDirs?: string[];
  /**
   * VS Code user folders (holding the Copilot Chat sessions in `workspaceStorage/<hash>/chatSessions/`), read too for
   * the tasks of Cline and its forks (`globalStorage/<extension id>/tasks/`).
   */
  vscodeDirs?: string[];
  /** Continue's folders (each holding `sessions/`). */
  continueDirs?: string[];
  /** Aider chat histories (`.aider.chat.history.md`), or folders holding them. */
  aiderPaths?: string[];
  /** SpecStory exports: files, `.specstory/history/` folders, projects or folders of projects holding them. */
  specstoryPaths?: string[];
  /** Transcripts named by path, or folders searched for them, each file's agent told by its contents. */
  transcriptPaths?: string[];
  /** Event files (protocol §0); `REMEM_HOME/inbox.jsonl` is always read when present. */
  eventFiles: string[];
  stdinEvents?: Buffer;
  /** A person's written rules files (CLAUDE.md, AGENTS.md, .cursorrules), read as events (`rulesToEvents`). */
  importedRules?: { file: string; bytes: Buffer }[];
  onProgress?: (progress: { done: number; total: number; file: string }) => void;
  /**
   * When a judge is configured: the band under the correction detector's threshold whose messages are kept as
   * candidates for it (`params.judge.band`). Absent, none is kept.
   */
  judgeBand?: number;
  /** A parser its caller opened ahead, its worker started while the rest loads; the run closes it. */
  parser?: TurnParser;
}

export interface IngestReport {
  filesSeen: number;
  filesRead: number;
  filesUnchanged: number;
  filesRestarted: number;
  bytesRead: number;
  linesRead: number;
  sessionsDerived: number;
  episodesAdded: number;
  episodesChanged: number;
  episodesRemoved: number;
  eventsStored: number;
  warningCount: number;
  /** The first warnings, each naming file and line; `warningCount` is the exact total. */
  warnings: IngestWarning[];
}

const SHOWN_WARNINGS = 50;

/** A run's empty report, its id, and how it records a warning: counted, the first few kept, all stored. */
export function startRun(
  store: Store,
  now: string,
): { report: IngestReport; runId: number; warn: (warning: IngestWarning) => void } {
  const report = emptyReport();
  const runId = startIngestRun(store.db, now);
  const warn = (warning: IngestWarning) => {
    report.warningCount++;
    if (report.warnings.length < SHOWN_WARNINGS) report.warnings.push(warning);
    recordIngestWarning(store.db, runId, warning);
  };
  return { report, runId, warn };
}

/** Ends a run: derives every session still waiting for it, then records the run. */
export function finishRun(
  store: Store,
  now: string,
  run: { report: IngestReport; runId: number; readNow: ReadNow; judgeBand?: number | undefined },
): IngestReport {
  const { report } = run;
  deriveStaleSessions(store, now, report, run.readNow, run.judgeBand);
  finishIngestRun(store.db, run.runId, {
    finishedAt: now,
    filesRead: report.filesRead,
    bytesRead: report.bytesRead,
    episodesAdded: report.episodesAdded + report.eventsStored,
    warnings: report.warningCount,
  });
  return report;
}

function emptyReport(): IngestReport {
  return {
    filesSeen: 0,
    filesRead: 0,
    filesUnchanged: 0,
    filesRestarted: 0,
    bytesRead: 0,
    linesRead: 0,
    sessionsDerived: 0,
    episodesAdded: 0,
    episodesChanged: 0,
    episodesRemoved: 0,
    eventsStored: 0,
    warningCount: 0,
    warnings: [],
  };
}

/**
 * The sources but the copies of a chat whose own transcript is read in this run or was read before (`Source.sameAs`):
 * read twice, a correction would count as said twice. Each copy left out is a warning that says which chat it copies.
 */
function withoutCopies(store: Store, sources: Source[], warn: (w: IngestWarning) => void): Source[] {
  const read = new Set(sources.flatMap((source) => (source.sameAs ? [] : [sessionKey(source)])));
  return sources.filter((source) => {
    if (!source.sameAs) return true;
    const { agent, session } = source.sameAs;
    if (!read.has(keyOf(agent, session)) && listRawFilesOfSession(store.db, agent, session).length === 0)
      return true;
    warn({
      file: source.path,
      reason: `not read: a copy of ${agent} session ${session}, read from its own transcript`,
    });
    return false;
  });
}

/** The files an ingest reads: every transcript found, the inbox, and the event files named. */
export function listSources(home: string, options: IngestOptions): Source[] {
  const found = discoverTranscripts({
    claudeDirs: options.claudeDirs,
    codexDirs: options.codexDirs,
    geminiDirs: options.geminiDirs ?? [],
  });
  // Spread into an array, not into push() (see `append`).
  const sources: Source[] = [
    ...found.map((file) => ({ path: file.path, agent: file.agent })),
    ...(options.opencodeDirs ?? []).flatMap((dir) => opencodeSources(dir)),
    ...(options.cursorDirs ?? []).flatMap((dir) => [...cursorSources(dir), ...clineSources(dir)]),
    ...(options.vscodeDirs ?? []).flatMap((dir) => [...copilotSources(dir), ...clineSources(dir)]),
    ...(options.continueDirs ?? []).flatMap((dir) => continueSources(dir)),
    ...(options.aiderPaths ?? []).flatMap((path) => aiderSources(path)),
    ...(options.specstoryPaths ?? []).flatMap((path) => specstorySources(path)),
    ...(options.transcriptPaths ?? []).flatMap((path) => transcriptSources(path)),
  ];
  const proxyLogs = join(home, 'proxy');
  if (existsSync(proxyLogs)) {
    for (const name of readdirSync(proxyLogs).sort()) {
      if (name.endsWith('.jsonl')) sources.push({ path: join(proxyLogs, name), agent: 'proxy' });
    }
  }
  const inbox = join(home, 'inbox.jsonl');
  if (existsSync(inbox)) sources.push({ path: inbox, agent: 'events' });
  for (const file of options.eventFiles) sources.push({ path: file, agent: 'events' });
  if (options.stdinEvents) {
    const digest = createHash('sha256').update(options.stdinEvents).digest('hex').slice(0, 16);
    sources.push({ path: `stdin:${digest}`, agent: 'events', bytes: options.stdinEvents });
  }
  for (const rules of options.importedRules ?? []) {
    const digest = createHash('sha256').update(rules.bytes).digest('hex').slice(0, 16);
    sources.push({ path: `import:${rules.file}#${digest}`, agent: 'events', bytes: rules.bytes });
  }
  return sources;
}

/** OpenCode's stores in a data folder (`opencode.db`, and `opencode-<channel>.db`), one source per session. */
function opencodeSources(dir: string): Source[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^opencode(-[A-Za-z0-9._-]+)?\.db$/.test(name));
  } catch {
    return [];
  }
  return names.sort().flatMap((name): Source[] => {
    const path = join(dir, name);
    try {
      return readOpencodeSessions(path).map((rows) => ({
        path: `${path}#${rows.id}`,
        agent: 'opencode',
        bytes: opencodeSessionLines(rows),
      }));
    } catch (error) {
      return [{ path, agent: 'opencode', unreadable: (error as Error).message }];
    }
  });
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']);

function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (DISK_FULL.has(code) || code.startsWith('SQLITE_IOERR'));
}

/**
 * Reads what is new in every source: archives it under `raw/` first, keeps its turns, and derives the
 * episodes of every session that changed. One transaction per file and per session, so a run stopped at
 * any point leaves whole files and whole sessions, and the next run finishes the work.
 */
export async function ingest(store: Store, options: IngestOptions): Promise<IngestReport> {
  const restoreTemp = keepTempInMemory(store.db);
  try {
    return await ingestSources(store, options);
  } finally {
    restoreTemp();
  }
}

async function ingestSources(store: Store, options: IngestOptions): Promise<IngestReport> {
  const { report, runId, warn } = startRun(store, options.now);
  const sources = withoutCopies(store, listSources(store.home, options), warn);
  report.filesSeen = sources.length;
  const workers = { compressor: openCompressor(), parser: options.parser ?? openTurnParser() };
  const readNow: ReadNow = new Map();
  // A session is derived once the last of its files in this run is committed, while the workers read on.
  const lastSourceOf = new Map(sources.map((source, index) => [sessionKey(source), index]));
  const committed = new Set<string>();
  try {
    const filesOfSession = new Map<string, number>();
    for (const source of sources) {
      const key = sessionKey(source);
      filesOfSession.set(key, (filesOfSession.get(key) ?? 0) + 1);
    }
    const ahead = readAhead(sources, (source, warnAhead) =>
      prepareSource(store, source, workers, warnAhead, filesOfSession.get(sessionKey(source)) === 1),
    );
    for (const [index, source] of sources.entries()) {
      options.onProgress?.({ done: index, total: sources.length, file: source.path });
      const { prepared: current, warnings } = ahead.next();
      for (const warning of warnings) warn(warning);
      try {
        if (current instanceof Error) throw current;
        if (current === null) report.filesUnchanged++;
        else {
          await commitSource(store, current, { now: options.now, report, warn, readNow });
          if (source.agent !== 'events') committed.add(sessionKey(source));
        }
      } catch (error) {
        // A disk that refuses writes fails every file after this one too: the run stops and says so.
        if (isDiskFull(error)) throw error;
        warn({ file: source.path, reason: `not read: ${(error as Error).message}` });
      } finally {
        if (current && !(current instanceof Error)) releaseOnceRead(current);
      }
      const key = sessionKey(source);
      if (lastSourceOf.get(key) === index && committed.delete(key)) {
        deriveSession(
          store,
          { agent: source.agent, session: sessionOf(source) },
          options.now,
          report,
          readNow,
          options.judgeBand,
        );
      }
    }
  } finally {
    await Promise.all([workers.compressor.close(), workers.parser.close()]);
  }
  options.onProgress?.({ done: sources.length, total: sources.length, file: '' });
  return finishRun(store, options.now, { report, runId, readNow, judgeBand: options.judgeBand });
}

/** The read's memory goes back for another read once both workers are done with its bytes, however they ended. */
function releaseOnceRead(prepared: Prepared): void {
  void Promise.allSettled([prepared.compressed, prepared.parsed]).then(() =>
    releaseRead(prepared.increment.bytes),
  );
}

/**
 * The turns a run read of files whose stored turns are exactly those (read whole, or read again from the start), by
 * file id: the turns, or the JSON text a worker made of them, or — for a session's only file — the episodes derived
 * with its parsing. Derivation takes them from here instead of reading back what was just stored: turns are plain
 * JSON data (strings, numbers, booleans; no value left undefined), so they are the same either way.
 */
export type ReadNow = Map<number, Turn[] | string | { derived: Derived }>;

/** What one read of a file gave to store: a transcript's turns, or an event file's events. */
export type FileRead = ParsedTurns | { events: ReturnType<typeof eventToEpisode>[] };

/** What committing one file needs of the run. */
export interface Run {
  now: string;
  report: IngestReport;
  warn: (w: IngestWarning) => void;
  readNow: ReadNow;
}

function sessionKey(source: Source): string {
  return keyOf(source.agent, sessionOf(source));
}

function keyOf(agent: string, session: string): string {
  return `${agent}\0${session}`;
}

/** Parses a prepared source, puts its archive member on disk, then commits what was parsed. */
async function commitSource(store: Store, prepared: Prepared, run: Run): Promise<void> {
  const { now, report, warn } = run;
  const { db } = store;
  const { source, session, prior, increment, archive, generation } = prepared;
  let parsed: FileRead;
  if (prepared.parsed === undefined) {
    parsed = parseBytes(source, increment.bytes, increment.parseFrom, increment.firstLine, now, warn);
  } else {
    parsed = await prepared.parsed;
    for (const warning of parsed.warnings) warn(warning);
  }
  // The raw stream is on disk before anything parsed from it is committed.
  const { archiveBytes, sha256 } = await prepared.compressed;
  let fileId = 0;
  db.transaction(() => {
    fileId = saveRawFile(db, {
      path: source.path,
      agent: source.agent,
      session,
      archive,
      archiveBytes: archiveBytes!,
      generation,
      offset: increment.mark.offset,
      lines: increment.mark.lines,
      prefixHash: increment.mark.prefixHash || sha256!,
      size: increment.size,
      mtimeMs: increment.mtimeMs,
      readAt: now,
    });
    storeParsed(store, source, fileId, session, increment.restarted, parsed, now, report);
  })();
  if ('json' in parsed && (!prior || increment.restarted))
    run.readNow.set(fileId, parsed.derived ? { derived: parsed.derived } : (parsed.turns ?? parsed.json));
  else run.readNow.delete(fileId);
  report.filesRead++;
  if (increment.restarted) report.filesRestarted++;
  report.bytesRead += increment.bytes.length;
  report.linesRead += increment.mark.lines - increment.firstLine;
}

export function storeParsed(
  store: Store,
  source: Source,
  fileId: number,
  session: string,
  restarted: boolean,
  parsed: FileRead,
  now: string,
  report: IngestReport,
): void {
  const { db } = store;
  if ('events' in parsed) {
    for (const event of parsed.events) if (insertEpisodeOnce(db, event, 'event', now)) report.eventsStored++;
    return;
  }
  if (restarted) deleteTurnsOfFile(db, fileId);
  if (parsed.json !== '') insertTurnsJson(db, fileId, parsed.firstLine, parsed.json);
  markSessionStale(db, source.agent, session);
}

/**
 * Derives the episodes of every session whose turns changed, each session in its own transaction. `readNow`: turns
 * just read and stored, by file id, taken from there rather than from the store.
 */
function deriveStaleSessions(
  store: Store,
  now: string,
  report: IngestReport,
  readNow: ReadNow = new Map(),
  judgeBand?: number,
): void {
  for (const stale of staleSessions(store.db)) deriveSession(store, stale, now, report, readNow, judgeBand);
}

/** The episodes derived with the parsing of a session's only file, when they were. */
function derivedWith(files: readonly { id: number }[], readNow: ReadNow): Derived | null {
  const read = files.length === 1 ? readNow.get(files[0]!.id) : undefined;
  if (read === undefined || typeof read === 'string' || Array.isArray(read)) return null;
  readNow.delete(files[0]!.id);
  return read.derived;
}

function deriveFromTurns(
  db: Store['db'],
  agent: string,
  session: string,
  files: readonly { id: number; path: string }[],
  readNow: ReadNow,
): Derived {
  const turns: Turn[] = [];
  for (const file of files) {
    const read = readNow.get(file.id);
    const stored =
      typeof read === 'string'
        ? (JSON.parse(read) as Turn[])
        : Array.isArray(read)
          ? read
          : turnsOfFile<Turn>(db, file.id);
    readNow.delete(file.id);
    for (const turn of stored) turns.push(Object.assign(turn, { file: file.path }));
  }
  return deriveEpisodes(assemble(agent, session, turns), files[0]?.path);
}

/**
 * Derives one session's episodes and offers anew from the turns of all its files, in one transaction. The
 * corrections a judge confirmed are derived again from their candidates; with a judge on, the candidates are.
 */
function deriveSession(
  store: Store,
  { agent, session }: { agent: string; session: string },
  now: string,
  report: IngestReport,
  readNow: ReadNow,
  judgeBand?: number,
): void {
  const { db } = store;
  db.transaction(() => {
    const files = listRawFilesOfSession(db, agent, session).sort(
      (a, b) =>
        Number(a.path.includes('/subagents/')) - Number(b.path.includes('/subagents/')) ||
        (a.path < b.path ? -1 : 1),
    );
    const derived = derivedWith(files, readNow) ?? deriveFromTurns(db, agent, session, files, readNow);
    const derivedKeys = new Set(derived.episodes.map((episode) => episode.key));
    const confirmed = confirmedCandidates(db, { agent, session }).filter(
      (draft) => !derivedKeys.has(draft.key),
    );
    const result = replaceSessionEpisodes(
      db,
      { agent, session, origin: 'transcript' },
      confirmed.length ? [...derived.episodes, ...confirmed] : derived.episodes,
      now,
    );
    if (judgeBand !== undefined) {
      const floor = correctionThreshold() - Math.min(judgeBand, WIDEST_BAND);
      const kept = derived.candidates.filter((candidate) => candidate.score >= floor);
      replaceSessionCandidates(db, { agent, session }, kept, now);
    }
    replaceSessionOffers(db, { agent, session }, derived.offers, now);
    clearStaleSession(db, agent, session);
    report.sessionsDerived++;
    report.episodesAdded += result.added;
    report.episodesChanged += result.changed;
    report.episodesRemoved += result.removed;
  })();
}
