import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getRawFile, type Store, saveRawFile } from '../store/index.ts';
import { countLines, readArchive } from '../stream/index.ts';
import {
  type FileRead,
  finishRun,
  type IngestOptions,
  type IngestReport,
  type ReadNow,
  type Run,
  startRun,
  storeParsed,
} from './ingest.ts';
import { parseBytes, parseTurns } from './parse-lines.ts';
import type { Source, SourceAgent } from './source.ts';

/**
 * Rebuilds every episode from the archive alone, with the current rules: each archived transcript is read
 * again from `raw/` (never from where the agent keeps it) and its sessions derived anew. Episodes keep
 * their ids and recorded times where the rules still derive them.
 */
export function ingestFromRaw(
  store: Store,
  options: { now: string; onProgress?: IngestOptions['onProgress']; judgeBand?: number },
): IngestReport {
  const { report, runId, warn } = startRun(store, options.now);
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
  return finishRun(store, options.now, { report, runId, readNow, judgeBand: options.judgeBand });
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
  let parsed: FileRead;
  if (source.agent === 'events') parsed = parseBytes(source, bytes, 0, 0, now, warn);
  else {
    parsed = parseTurns(source, bytes, 0, 0, true);
    for (const warning of parsed.warnings) warn(warning);
  }
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
  if ('turns' in parsed && parsed.turns) run.readNow.set(fileId, parsed.turns);
  report.filesRead++;
  report.bytesRead += bytes.length;
}
