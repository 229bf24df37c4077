import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  clearStaleSession,
  deleteTurnsOfFile,
  finishIngestRun,
  getRawFile,
  insertEpisodeOnce,
  insertTurns,
  listRawFilesOfSession,
  markSessionStale,
  type RawFile,
  recordIngestWarning,
  replaceSessionEpisodes,
  replaceSessionOffers,
  type Store,
  saveRawFile,
  staleSessions,
  startIngestRun,
  turnsOfFile,
} from '../store/index.ts';
import {
  appendMember,
  archivePathFor,
  assemble,
  claudeCodeReader,
  codexReader,
  compressMember,
  countLines,
  discoverTranscripts,
  forEachLine,
  type Increment,
  parseEventLine,
  type Reader,
  readArchive,
  readIncrement,
  type Turn,
} from '../stream/index.ts';
import { deriveEpisodes } from './derive.ts';
import { eventToEpisode } from './events.ts';

export type SourceAgent = 'claude-code' | 'codex' | 'events';

export interface Source {
  path: string;
  agent: SourceAgent;
  /** Bytes given directly (standard input) rather than read from `path`. */
  bytes?: Buffer;
}

export interface IngestOptions {
  now: string;
  /** Claude Code configuration folders (each holding `projects/`). */
  claudeDirs: string[];
  /** Codex homes (each holding `sessions/`). */
  codexDirs: string[];
  /** Event files (protocol §0); `REMEM_HOME/inbox.jsonl` is always read when present. */
  eventFiles: string[];
  stdinEvents?: Buffer;
  onProgress?: (progress: { done: number; total: number; file: string }) => void;
}

export interface IngestWarning {
  file: string;
  line?: number;
  reason: string;
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

const readers: Record<Exclude<SourceAgent, 'events'>, Reader> = {
  'claude-code': claudeCodeReader,
  codex: codexReader,
};

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

/** The files an ingest reads: every transcript found, the inbox, and the event files named. */
export function listSources(home: string, options: IngestOptions): Source[] {
  const found = discoverTranscripts({ claudeDirs: options.claudeDirs, codexDirs: options.codexDirs });
  const sources: Source[] = found.map((file) => ({ path: file.path, agent: file.agent }));
  const inbox = join(home, 'inbox.jsonl');
  if (existsSync(inbox)) sources.push({ path: inbox, agent: 'events' });
  for (const file of options.eventFiles) sources.push({ path: file, agent: 'events' });
  if (options.stdinEvents) {
    const digest = createHash('sha256').update(options.stdinEvents).digest('hex').slice(0, 16);
    sources.push({ path: `stdin:${digest}`, agent: 'events', bytes: options.stdinEvents });
  }
  return sources;
}

/**
 * Reads what is new in every source: archives it under `raw/` first, keeps its turns, and derives the
 * episodes of every session that changed. One transaction per file and per session, so a run stopped at
 * any point leaves whole files and whole sessions, and the next run finishes the work.
 */
export async function ingest(store: Store, options: IngestOptions): Promise<IngestReport> {
  const report = emptyReport();
  const runId = startIngestRun(store.db, options.now);
  const warn = (warning: IngestWarning) => {
    report.warningCount++;
    if (report.warnings.length < SHOWN_WARNINGS) report.warnings.push(warning);
    recordIngestWarning(store.db, runId, warning);
  };
  const sources = listSources(store.home, options);
  report.filesSeen = sources.length;
  for (const [index, source] of sources.entries()) {
    options.onProgress?.({ done: index, total: sources.length, file: source.path });
    try {
      await readSource(store, source, options.now, report, warn);
    } catch (error) {
      warn({ file: source.path, reason: `not read: ${(error as Error).message}` });
    }
  }
  options.onProgress?.({ done: sources.length, total: sources.length, file: '' });
  deriveStaleSessions(store, options.now, report);
  finishIngestRun(store.db, runId, {
    finishedAt: options.now,
    filesRead: report.filesRead,
    bytesRead: report.bytesRead,
    episodesAdded: report.episodesAdded + report.eventsStored,
    warnings: report.warningCount,
  });
  return report;
}

function sessionOf(source: Source): string {
  if (source.agent === 'events') return 'events';
  return readers[source.agent].sessionOf(source.path);
}

function incrementOf(
  source: Source,
  prior: RawFile | undefined,
  warn: (w: IngestWarning) => void,
): Increment | null {
  if (source.bytes) {
    if (prior) return null;
    const bytes = source.bytes;
    const endsOpen = bytes.length > 0 && bytes[bytes.length - 1] !== 10;
    return {
      restarted: false,
      start: 0,
      firstLine: 0,
      bytes,
      parseFrom: 0,
      mark: {
        offset: bytes.length,
        lines: countLines(bytes) + (endsOpen ? 1 : 0),
        prefixHash: createHash('sha256').update(bytes).digest('hex'),
      },
      size: bytes.length,
      mtimeMs: 0,
    };
  }
  let stat: { size: number; mtimeMs: number };
  try {
    stat = statSync(source.path);
  } catch (error) {
    warn({
      file: source.path,
      reason: `vanished before it was read: ${(error as NodeJS.ErrnoException).code}`,
    });
    return null;
  }
  if (prior && prior.size === stat.size && prior.mtimeMs === stat.mtimeMs) return null;
  return readIncrement(
    source.path,
    prior && { offset: prior.offset, lines: prior.lines, prefixHash: prior.prefixHash },
  );
}

async function readSource(
  store: Store,
  source: Source,
  now: string,
  report: IngestReport,
  warn: (w: IngestWarning) => void,
): Promise<void> {
  const { db } = store;
  const prior = getRawFile(db, source.path);
  const increment = incrementOf(source, prior, warn);
  if (!increment) {
    report.filesUnchanged++;
    return;
  }
  const session = sessionOf(source);
  const generation = prior ? prior.generation + (increment.restarted ? 1 : 0) : 0;
  const archive = archivePathFor(source.agent, session, source.path, generation);
  const committed = prior && !increment.restarted ? prior.archiveBytes : 0;
  // Compression runs on the thread pool while this thread parses; the raw stream is on disk before any
  // of what was parsed is committed.
  const member = compressMember(increment.bytes);
  const parsed = parseBytes(source, increment.bytes, increment.parseFrom, increment.firstLine, now, warn);
  const archiveBytes = appendMember(store.home, archive, committed, await member);
  writeArchiveMeta(store.home, archive, { source: source.path, agent: source.agent, session, generation });
  db.transaction(() => {
    const fileId = saveRawFile(db, {
      path: source.path,
      agent: source.agent,
      session,
      archive,
      archiveBytes,
      generation,
      offset: increment.mark.offset,
      lines: increment.mark.lines,
      prefixHash: increment.mark.prefixHash,
      size: increment.size,
      mtimeMs: increment.mtimeMs,
      readAt: now,
    });
    storeParsed(store, source, fileId, session, increment.restarted, parsed, now, report);
  })();
  report.filesRead++;
  if (increment.restarted) report.filesRestarted++;
  report.bytesRead += increment.bytes.length;
  report.linesRead += increment.mark.lines - increment.firstLine;
}

interface Parsed {
  turns: Turn[];
  events: ReturnType<typeof eventToEpisode>[];
}

function parseBytes(
  source: Source,
  bytes: Buffer,
  from: number,
  firstLine: number,
  now: string,
  warn: (w: IngestWarning) => void,
): Parsed {
  const parsed: Parsed = { turns: [], events: [] };
  if (source.agent === 'events') {
    forEachLine(bytes, from, firstLine, (line, text) => {
      const result = parseEventLine(text, line);
      if ('error' in result) warn({ file: source.path, line, reason: result.error });
      else parsed.events.push(eventToEpisode(result.event, now, { file: source.path, line }));
    });
    return parsed;
  }
  const reader = readers[source.agent];
  forEachLine(bytes, from, firstLine, (line, text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      warn({ file: source.path, line, reason: `not JSON (${describeBad(text)})` });
      return;
    }
    const result = reader.parseLine(value, line);
    if (result.warning) warn({ file: source.path, line, reason: result.warning });
    for (const turn of result.turns) parsed.turns.push(turn);
  });
  return parsed;
}

function describeBad(text: string): string {
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text.slice(0, 200))) return 'binary data';
  if (text.length > 1_000_000) return `${text.length} characters`;
  return `starts ${JSON.stringify(text.slice(0, 40))}`;
}

function storeParsed(
  store: Store,
  source: Source,
  fileId: number,
  session: string,
  restarted: boolean,
  parsed: Parsed,
  now: string,
  report: IngestReport,
): void {
  const { db } = store;
  if (source.agent === 'events') {
    for (const event of parsed.events) if (insertEpisodeOnce(db, event, 'event', now)) report.eventsStored++;
    return;
  }
  if (restarted) deleteTurnsOfFile(db, fileId);
  insertTurns(db, fileId, parsed.turns);
  markSessionStale(db, source.agent, session);
}

function writeArchiveMeta(home: string, archive: string, meta: Record<string, unknown>): void {
  const path = join(home, `${archive}.meta.json`);
  if (!existsSync(path)) writeFileSync(path, `${JSON.stringify(meta)}\n`, { mode: 0o600 });
}

/** Derives the episodes of every session whose turns changed, each session in its own transaction. */
export function deriveStaleSessions(store: Store, now: string, report: IngestReport): void {
  const { db } = store;
  for (const { agent, session } of staleSessions(db)) {
    db.transaction(() => {
      const files = listRawFilesOfSession(db, agent, session).sort(
        (a, b) =>
          Number(a.path.includes('/subagents/')) - Number(b.path.includes('/subagents/')) ||
          (a.path < b.path ? -1 : 1),
      );
      const turns: Turn[] = [];
      for (const file of files) {
        for (const turn of turnsOfFile<Turn>(db, file.id)) turns.push({ ...turn, file: file.path });
      }
      const conversation = assemble(agent, session, turns);
      const derived = deriveEpisodes(conversation, files[0]?.path);
      const result = replaceSessionEpisodes(
        db,
        { agent, session, origin: 'transcript' },
        derived.episodes,
        now,
      );
      replaceSessionOffers(db, { agent, session }, derived.offers, now);
      clearStaleSession(db, agent, session);
      report.sessionsDerived++;
      report.episodesAdded += result.added;
      report.episodesChanged += result.changed;
      report.episodesRemoved += result.removed;
    })();
  }
}

/**
 * Rebuilds every episode from the archive alone, with the current rules: each archived transcript is read
 * again from `raw/` (never from where the agent keeps it) and its sessions derived anew. Episodes keep
 * their ids and recorded times where the rules still derive them.
 */
export function ingestFromRaw(
  store: Store,
  options: { now: string; onProgress?: IngestOptions['onProgress'] },
): IngestReport {
  const report = emptyReport();
  const runId = startIngestRun(store.db, options.now);
  const warn = (warning: IngestWarning) => {
    report.warningCount++;
    if (report.warnings.length < SHOWN_WARNINGS) report.warnings.push(warning);
    recordIngestWarning(store.db, runId, warning);
  };
  const archives = latestArchives(store.home);
  report.filesSeen = archives.length;
  archives.forEach((meta, index) => {
    options.onProgress?.({ done: index, total: archives.length, file: meta.source });
    try {
      rebuildFromArchive(store, meta, options.now, report, warn);
    } catch (error) {
      warn({ file: meta.archive, reason: `archive not read: ${(error as Error).message}` });
    }
  });
  options.onProgress?.({ done: archives.length, total: archives.length, file: '' });
  deriveStaleSessions(store, options.now, report);
  finishIngestRun(store.db, runId, {
    finishedAt: options.now,
    filesRead: report.filesRead,
    bytesRead: report.bytesRead,
    episodesAdded: report.episodesAdded + report.eventsStored,
    warnings: report.warningCount,
  });
  return report;
}

interface ArchiveMeta {
  archive: string;
  source: string;
  agent: SourceAgent;
  session: string;
  generation: number;
}

function latestArchives(home: string): ArchiveMeta[] {
  const root = join(home, 'raw');
  if (!existsSync(root)) return [];
  const latest = new Map<string, ArchiveMeta>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl.gz.meta.json')) continue;
    const metaPath = join(entry.parentPath, entry.name);
    try {
      const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Omit<ArchiveMeta, 'archive'>;
      const archive = relative(home, metaPath.slice(0, -'.meta.json'.length));
      const known = latest.get(meta.source);
      if (!known || known.generation < meta.generation) latest.set(meta.source, { ...meta, archive });
    } catch {
      // a sidecar that cannot be read names no archive; the archive itself is kept
    }
  }
  return [...latest.values()].sort((a, b) => (a.source < b.source ? -1 : 1));
}

function rebuildFromArchive(
  store: Store,
  meta: ArchiveMeta,
  now: string,
  report: IngestReport,
  warn: (w: IngestWarning) => void,
): void {
  const { db } = store;
  const prior = getRawFile(db, meta.source);
  const committed =
    prior && prior.archive === meta.archive
      ? prior.archiveBytes
      : statSync(join(store.home, meta.archive)).size;
  const bytes = readArchive(store.home, meta.archive, committed);
  const source: Source = { path: meta.source, agent: meta.agent };
  const parsed = parseBytes(source, bytes, 0, 0, now, warn);
  const endsOpen = bytes.length > 0 && bytes[bytes.length - 1] !== 10;
  db.transaction(() => {
    const fileId = saveRawFile(db, {
      path: meta.source,
      agent: meta.agent,
      session: meta.session,
      archive: meta.archive,
      archiveBytes: committed,
      generation: meta.generation,
      offset: bytes.length,
      lines: countLines(bytes) + (endsOpen ? 1 : 0),
      prefixHash: createHash('sha256').update(bytes).digest('hex'),
      size: prior?.size ?? bytes.length,
      mtimeMs: prior?.mtimeMs ?? 0,
      readAt: prior?.readAt ?? now,
    });
    storeParsed(store, source, fileId, meta.session, true, parsed, now, report);
  })();
  report.filesRead++;
  report.bytesRead += bytes.length;
}
