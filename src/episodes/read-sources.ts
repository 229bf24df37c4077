/** Reading the sources of an ingest: what is new in each, read ahead while the one before is parsed. */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { defaultParams } from '../core/index.ts';
import { getRawFile, listRawFilesOfSession, type RawFile, type Store } from '../store/index.ts';
import {
  archivePathFor,
  type Compressed,
  type Compressor,
  countLines,
  type Increment,
  readIncrement,
} from '../stream/index.ts';
import { type ParsedTurns, sessionOf } from './parse-lines.ts';
import type { IngestWarning, Source } from './source.ts';
import type { TurnParser } from './turn-parser.ts';

function incrementOf(
  source: Source,
  prior: RawFile | undefined,
  warn: (w: IngestWarning) => void,
): Increment | null {
  if (source.unreadable !== undefined) {
    warn({ file: source.path, reason: `not read: ${source.unreadable}` });
    return null;
  }
  if (source.bytes) return givenIncrement(source.bytes, prior);
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
  const increment = readIncrement(
    source.path,
    prior && { offset: prior.offset, lines: prior.lines, prefixHash: prior.prefixHash },
    { hashFromStart: false },
  );
  if (increment?.openLine) {
    const { line, bytes } = increment.openLine;
    warn({
      file: source.path,
      line,
      reason: `line of ${bytes} bytes, still open, not read: over the ${defaultParams.stream.maxLineBytes}-byte line limit`,
    });
  }
  return increment;
}

/**
 * What given bytes add to what was read of them before: the part past the last read when the part read is unchanged
 * (the same SHA-256), else all of them again. Null when nothing was added.
 */
function givenIncrement(all: Buffer, prior: RawFile | undefined): Increment | null {
  const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const kept =
    prior !== undefined &&
    prior.offset <= all.length &&
    hashOf(all.subarray(0, prior.offset)) === prior.prefixHash;
  if (kept && prior.offset === all.length) return null;
  const start = kept ? prior.offset : 0;
  const firstLine = kept ? prior.lines : 0;
  const bytes = all.subarray(start);
  const endsOpen = bytes.length > 0 && bytes[bytes.length - 1] !== 10;
  return {
    restarted: prior !== undefined && !kept,
    start,
    firstLine,
    bytes,
    parseFrom: 0,
    mark: {
      offset: all.length,
      lines: firstLine + countLines(bytes) + (endsOpen ? 1 : 0),
      prefixHash: hashOf(all),
    },
    size: all.length,
    mtimeMs: 0,
  };
}

/** How many files are read, and their compression started, ahead of the one being parsed. */
const READ_AHEAD = 2;

/** A source as read ahead: what was prepared (or the error that stopped it), and the warnings it gave meanwhile. */
export interface ReadAhead {
  prepared: Prepared | Error | null;
  warnings: IngestWarning[];
}

/**
 * The prepared sources in order, each read and its compression started `READ_AHEAD` files before it is taken: while
 * this thread parses and commits one file, a worker compresses the next ones. A source's warnings wait with it, so
 * they come in the order of the sources. A source is never read ahead of an uncommitted read of the same file, which
 * it would not see.
 */
export function readAhead(
  sources: readonly Source[],
  prepare: (source: Source, warn: (warning: IngestWarning) => void) => Prepared | null,
): { next(): ReadAhead } {
  const waiting: (ReadAhead & { path: string })[] = [];
  let read = 0;
  const fill = () => {
    while (read < sources.length && waiting.length <= READ_AHEAD) {
      const source = sources[read]!;
      if (waiting.some((entry) => entry.path === source.path)) break;
      const warnings: IngestWarning[] = [];
      let prepared: Prepared | Error | null;
      try {
        prepared = prepare(source, (warning) => warnings.push(warning));
      } catch (error) {
        prepared = error as Error;
      }
      waiting.push({ path: source.path, prepared, warnings });
      read++;
    }
  };
  return {
    next() {
      fill();
      return waiting.shift()!;
    },
  };
}

export interface Prepared {
  source: Source;
  session: string;
  prior: RawFile | undefined;
  increment: Increment;
  /** The archive this read goes to (relative to the home folder) and its generation. */
  archive: string;
  generation: number;
  /** The archive's new length once this read's member is appended, and the hash of the bytes when this read left it to be taken here. */
  compressed: Promise<Compressed>;
  /** A transcript's turns (an event file is parsed when committed: its events are stamped with the run's time). */
  parsed?: Promise<ParsedTurns>;
}

/** Reads what is new in a source and starts compressing it and parsing its turns; null when nothing changed. */
export function prepareSource(
  store: Store,
  source: Source,
  workers: { compressor: Compressor; parser: TurnParser },
  warn: (w: IngestWarning) => void,
  /** Whether this is the only file of its session in the run. */
  onlyFileInRun = false,
): Prepared | null {
  const prior = getRawFile(store.db, source.path);
  const increment = incrementOf(source, prior, warn);
  if (!increment) return null;
  const digest = increment.mark.prefixHash === '';
  const session = sessionOf(source);
  const generation = prior ? prior.generation + (increment.restarted ? 1 : 0) : 0;
  const archive = archivePathFor(source.agent, session, source.path, generation);
  // Appended ahead of its commit, as before: a member a run wrote but did not commit is cut off by the next one.
  const appendTo = {
    home: store.home,
    relative: archive,
    committedBytes: prior && !increment.restarted ? prior.archiveBytes : 0,
    meta: { source: source.path, agent: source.agent, session, generation },
  };
  const compressed = workers.compressor.compress(increment.bytes, { digest, appendTo });
  const read = { source, session, prior, increment, archive, generation, compressed };
  if (source.agent === 'events') return read;
  const { bytes, parseFrom, firstLine } = increment;
  // Read whole and its session's only file: whoever parses it can derive the session's episodes as well.
  const whole =
    onlyFileInRun &&
    (!prior || increment.restarted) &&
    listRawFilesOfSession(store.db, source.agent, session).every((file) => file.path === source.path);
  return {
    ...read,
    parsed: workers.parser.parse(source, bytes, parseFrom, firstLine, whole ? session : undefined),
  };
}
