import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  countEpisodesByKind,
  delegationTally,
  type IngestRun,
  ingestWarningsOf,
  lastIngestRun,
  openStore,
  rawFileSources,
  rawFileTotals,
  SCHEMA_VERSION,
  type SourceTally,
  type StoredIngestWarning,
} from '../store/index.ts';
import { formatBytes } from './ingest-run.ts';

export interface Status {
  home: string;
  schemaVersion: number;
  knownSchemaVersion: number;
  episodes: Record<string, number>;
  files: number;
  /** Each agent's transcripts read: files, sessions, last read. */
  sources: SourceTally[];
  bytesRead: number;
  archiveBytes: number;
  storeBytes: number;
  lastIngest: IngestRun | null;
  lastWarnings: StoredIngestWarning[];
  offers: number;
}

function folderSize(path: string): number {
  if (!existsSync(path)) return 0;
  let total = 0;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** How many of the last run's warnings `remem status` shows. */
const SHOWN_WARNINGS = 20;

export function collectStatus(home: string): Status {
  const store = openStore(home);
  try {
    const totals = rawFileTotals(store.db);
    const last = lastIngestRun(store.db) ?? null;
    const lastWarnings = last ? ingestWarningsOf(store.db, last.id, SHOWN_WARNINGS) : [];
    const offers = delegationTally(store.db).reduce((sum, row) => sum + row.count, 0);
    let storeBytes = 0;
    for (const suffix of ['', '-wal', '-shm']) {
      const path = `${store.path}${suffix}`;
      if (existsSync(path)) storeBytes += statSync(path).size;
    }
    return {
      home,
      schemaVersion: store.schemaVersion,
      knownSchemaVersion: SCHEMA_VERSION,
      episodes: countEpisodesByKind(store.db),
      files: totals.files,
      sources: rawFileSources(store.db),
      bytesRead: totals.bytes,
      archiveBytes: folderSize(join(home, 'raw')),
      storeBytes,
      lastIngest: last,
      lastWarnings,
      offers,
    };
  } finally {
    store.close();
  }
}

export function formatStatus(status: Status): string {
  const kinds = Object.entries(status.episodes);
  const lines = [
    `Memory: ${status.home} (schema version ${status.schemaVersion})`,
    `Episodes: ${kinds.length ? kinds.map(([kind, n]) => `${kind} ${n}`).join(', ') : 'none'}`,
    `Hand-backs recorded: ${status.offers}`,
    `Files read: ${status.files} (${formatBytes(status.bytesRead)}); archive: ${formatBytes(status.archiveBytes)}; store: ${formatBytes(status.storeBytes)}`,
  ];
  lines.push(...formatSources(status.sources));
  if (status.lastIngest) {
    lines.push(
      `Last ingest: ${status.lastIngest.finishedAt}, ${status.lastIngest.filesRead} files, ${status.lastIngest.warnings} lines skipped`,
    );
    for (const warning of status.lastWarnings) {
      lines.push(`  ${warning.file}${warning.line ? `:${warning.line}` : ''}: ${warning.reason}`);
    }
  }
  return lines.join('\n');
}

/** One line per source: its files, sessions and last read. */
export function formatSources(sources: readonly SourceTally[]): string[] {
  if (sources.length === 0) return ['Sources: none read yet'];
  return [
    'Sources:',
    ...sources.map(
      (source) =>
        `  ${source.agent.padEnd(12)} ${source.files} files, ${source.sessions} sessions, last read ${source.lastRead}`,
    ),
  ];
}
