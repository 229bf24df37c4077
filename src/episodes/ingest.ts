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
  type Compressed,
  type Compressor,
  claudeCodeReader,
  codexReader,
  countLines,
  discoverTranscripts,
  forEachLine,
  forEachLineRange,
  type Increment,
  type LineResult,
  openCompressor,
  parseEventLine,
  proxyLogReader,
  type Reader,
  readArchive,
  readIncrement,
  type Turn,
} from '../stream/index.ts';
import { deriveEpisodes } from './derive.ts';
import { eventToEpisode } from './events.ts';

export type SourceAgent = 'claude-code' | 'codex' | 'proxy' | 'events';

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
  proxy: proxyLogReader,
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
  const compressor = openCompressor();
  const readNow: ReadNow = new Map();
  try {
    const ahead = readAhead(sources, (source) => prepareSource(store, source, compressor, warn));
    for (const [index, source] of sources.entries()) {
      options.onProgress?.({ done: index, total: sources.length, file: source.path });
      const current = ahead.next();
      try {
        if (current instanceof Error) throw current;
        if (current === null) report.filesUnchanged++;
        else await commitSource(store, current, { now: options.now, report, warn, readNow });
      } catch (error) {
        warn({ file: source.path, reason: `not read: ${(error as Error).message}` });
      }
    }
  } finally {
    await compressor.close();
  }
  options.onProgress?.({ done: sources.length, total: sources.length, file: '' });
  deriveStaleSessions(store, options.now, report, readNow);
  finishIngestRun(store.db, runId, {
    finishedAt: options.now,
    filesRead: report.filesRead,
    bytesRead: report.bytesRead,
    episodesAdded: report.episodesAdded + report.eventsStored,
    warnings: report.warningCount,
  });
  return report;
}

/**
 * The turns a run read of files whose stored turns are exactly those (read whole, or read again from the start), by
 * file id. Derivation takes them from here instead of parsing back what was just stored: turns are plain JSON data
 * (strings, numbers, booleans; no value left undefined), so they are the same either way.
 */
type ReadNow = Map<number, Turn[]>;

/** What committing one file needs of the run. */
interface Run {
  now: string;
  report: IngestReport;
  warn: (w: IngestWarning) => void;
  readNow: ReadNow;
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
    { hashFromStart: false },
  );
}

/** How many files are read, and their compression started, ahead of the one being parsed. */
const READ_AHEAD = 2;

/**
 * The prepared sources in order, each read and its compression started `READ_AHEAD` files before it is taken: while
 * this thread parses and commits one file, the thread pool archives the next ones. A source is never read ahead of an
 * uncommitted read of the same file, which it would not see.
 */
function readAhead(
  sources: readonly Source[],
  prepare: (source: Source) => Prepared | null,
): { next(): Prepared | Error | null } {
  const waiting: { path: string; prepared: Prepared | Error | null }[] = [];
  let read = 0;
  const fill = () => {
    while (read < sources.length && waiting.length <= READ_AHEAD) {
      const source = sources[read]!;
      if (waiting.some((entry) => entry.path === source.path)) break;
      let prepared: Prepared | Error | null;
      try {
        prepared = prepare(source);
      } catch (error) {
        prepared = error as Error;
      }
      waiting.push({ path: source.path, prepared });
      read++;
    }
  };
  return {
    next() {
      fill();
      return waiting.shift()!.prepared;
    },
  };
}

interface Prepared {
  source: Source;
  prior: RawFile | undefined;
  increment: Increment;
  /** The archive member, and the hash of the bytes when this read left it to be taken here. */
  compressed: Promise<Compressed>;
}

/** Reads what is new in a source and starts compressing it; null when nothing changed. */
function prepareSource(
  store: Store,
  source: Source,
  compressor: Compressor,
  warn: (w: IngestWarning) => void,
): Prepared | null {
  const prior = getRawFile(store.db, source.path);
  const increment = incrementOf(source, prior, warn);
  if (!increment) return null;
  const digest = increment.mark.prefixHash === '';
  return { source, prior, increment, compressed: compressor.compress(increment.bytes, { digest }) };
}

/** Parses a prepared source, puts its archive member on disk, then commits what was parsed. */
async function commitSource(store: Store, prepared: Prepared, run: Run): Promise<void> {
  const { now, report, warn } = run;
  const { db } = store;
  const { source, prior, increment } = prepared;
  const session = sessionOf(source);
  const generation = prior ? prior.generation + (increment.restarted ? 1 : 0) : 0;
  const archive = archivePathFor(source.agent, session, source.path, generation);
  const committed = prior && !increment.restarted ? prior.archiveBytes : 0;
  const parsed = parseBytes(source, increment.bytes, increment.parseFrom, increment.firstLine, now, warn);
  // The raw stream is on disk before anything parsed from it is committed.
  const { member, sha256 } = await prepared.compressed;
  const archiveBytes = appendMember(store.home, archive, committed, member);
  writeArchiveMeta(store.home, archive, { source: source.path, agent: source.agent, session, generation });
  let fileId = 0;
  db.transaction(() => {
    fileId = saveRawFile(db, {
      path: source.path,
      agent: source.agent,
      session,
      archive,
      archiveBytes,
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
  if (!prior || increment.restarted) run.readNow.set(fileId, parsed.turns);
  else run.readNow.delete(fileId);
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
  forEachLineRange(bytes, from, firstLine, (line, start, end) => {
    const result =
      reader.skimLine?.(bytes, start, end, line) ??
      parseWhole(reader, bytes.toString('utf8', start, end), line);
    if ('bad' in result) warn({ file: source.path, line, reason: `not JSON (${describeBad(result.bad)})` });
    else {
      if (result.warning) warn({ file: source.path, line, reason: result.warning });
      for (const turn of result.turns) parsed.turns.push(turn);
    }
  });
  return parsed;
}

/** One line decoded and parsed whole; `bad` holds the text when it is not JSON. */
function parseWhole(reader: Reader, text: string, line: number): LineResult | { bad: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { bad: text };
  }
  return reader.parseLine(value, line);
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

/**
 * Derives the episodes of every session whose turns changed, each session in its own transaction. `readNow`: turns
 * just read and stored, by file id, taken from there rather than from the store.
 */
export function deriveStaleSessions(
  store: Store,
  now: string,
  report: IngestReport,
  readNow: ReadNow = new Map(),
): void {
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
        const stored = readNow.get(file.id) ?? turnsOfFile<Turn>(db, file.id);
        readNow.delete(file.id);
        for (const turn of stored) turns.push(Object.assign(turn, { file: file.path }));
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
  const readNow: ReadNow = new Map();
  archives.forEach((meta, index) => {
    options.onProgress?.({ done: index, total: archives.length, file: meta.source });
    try {
      rebuildFromArchive(store, meta, { now: options.now, report, warn, readNow });
    } catch (error) {
      warn({ file: meta.archive, reason: `archive not read: ${(error as Error).message}` });
    }
  });
  options.onProgress?.({ done: archives.length, total: archives.length, file: '' });
  deriveStaleSessions(store, options.now, report, readNow);
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

function rebuildFromArchive(store: Store, meta: ArchiveMeta, run: Run): void {
  const { now, report, warn } = run;
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
  let fileId = 0;
  db.transaction(() => {
    fileId = saveRawFile(db, {
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
  run.readNow.set(fileId, parsed.turns);
  report.filesRead++;
  report.bytesRead += bytes.length;
}
