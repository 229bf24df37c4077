import type { Db } from './open.ts';

export interface IngestRun {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  filesRead: number;
  bytesRead: number;
  episodesAdded: number;
  warnings: number;
}

export function startIngestRun(db: Db, now: string): number {
  return Number(db.prepare('INSERT INTO ingest_runs (started_at) VALUES (?)').run(now).lastInsertRowid);
}

export function finishIngestRun(
  db: Db,
  id: number,
  figures: {
    finishedAt: string;
    filesRead: number;
    bytesRead: number;
    episodesAdded: number;
    warnings: number;
  },
): void {
  db.prepare(
    `UPDATE ingest_runs SET finished_at = @finishedAt, files_read = @filesRead, bytes_read = @bytesRead,
       episodes_added = @episodesAdded, warnings = @warnings WHERE id = @id`,
  ).run({ ...figures, id });
}

/** At most this many warnings are kept per run; the count is always exact. */
const KEPT_WARNINGS = 1000;

export function recordIngestWarning(
  db: Db,
  runId: number,
  warning: { file: string; line?: number; reason: string },
): void {
  const { n } = db.prepare('SELECT COUNT(*) AS n FROM ingest_warnings WHERE run_id = ?').get(runId) as {
    n: number;
  };
  if (n >= KEPT_WARNINGS) return;
  db.prepare('INSERT INTO ingest_warnings (run_id, file, line, reason) VALUES (?, ?, ?, ?)').run(
    runId,
    warning.file,
    warning.line ?? null,
    warning.reason,
  );
}

export function lastIngestRun(db: Db): IngestRun | undefined {
  return db
    .prepare(
      `SELECT id, started_at AS startedAt, finished_at AS finishedAt, files_read AS filesRead, bytes_read AS bytesRead,
         episodes_added AS episodesAdded, warnings FROM ingest_runs WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`,
    )
    .get() as IngestRun | undefined;
}

export interface StoredIngestWarning {
  file: string;
  line: number | null;
  reason: string;
}

/** The first `limit` warnings a run kept, in the order they were met. */
export function ingestWarningsOf(db: Db, runId: number, limit: number): StoredIngestWarning[] {
  return db
    .prepare('SELECT file, line, reason FROM ingest_warnings WHERE run_id = ? ORDER BY id LIMIT ?')
    .all(runId, limit) as StoredIngestWarning[];
}
