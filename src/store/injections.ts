import type { Db } from './open.ts';

/** Where lessons reached an agent: the three hooks, a rendered folder or block, the proxy, MCP, recall, the REST API. */
export const INJECTION_MOMENTS = [
  'prompt',
  'stop',
  'tool',
  'render',
  'proxy',
  'mcp',
  'recall',
  'api',
] as const;
export type InjectionMoment = (typeof INJECTION_MOMENTS)[number];

/** One injection, without its payload: the hashes of what was (or would have been) shown, and the counts. */
export interface Injection {
  at: string;
  session: string | null;
  moment: InjectionMoment;
  /** False when the session is held out: worked out and logged, not shown. */
  shown: boolean;
  lessonHashes: string[];
  considered: number;
  dropped: number;
  /** Why lessons were dropped, each reason with how many. */
  reasons: Record<string, number>;
}

export function insertInjection(db: Db, injection: Injection): number {
  return Number(
    db
      .prepare(
        `INSERT INTO injections (at, session, moment, shown, lesson_hashes, considered, dropped, reasons)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        injection.at,
        injection.session,
        injection.moment,
        injection.shown ? 1 : 0,
        JSON.stringify(injection.lessonHashes),
        injection.considered,
        injection.dropped,
        JSON.stringify(injection.reasons),
      ).lastInsertRowid,
  );
}

interface InjectionRow {
  id: number;
  at: string;
  session: string | null;
  moment: InjectionMoment;
  shown: number;
  lesson_hashes: string;
  considered: number;
  dropped: number;
  reasons: string;
}

/** The injections of one session (or all), oldest first. */
export function listInjections(db: Db, filter: { session?: string } = {}): (Injection & { id: number })[] {
  const rows = (
    filter.session === undefined
      ? db.prepare('SELECT * FROM injections ORDER BY id').all()
      : db.prepare('SELECT * FROM injections WHERE session = ? ORDER BY id').all(filter.session)
  ) as InjectionRow[];
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    session: row.session,
    moment: row.moment,
    shown: row.shown === 1,
    lessonHashes: JSON.parse(row.lesson_hashes) as string[],
    considered: row.considered,
    dropped: row.dropped,
    reasons: JSON.parse(row.reasons) as Record<string, number>,
  }));
}

/**
 * Sessions the holdout kept lessons from, and sessions shown them: a session counts as held out when a hook
 * chose lessons for it and showed none (the holdout's doing), as shown when any hook showed it one.
 */
export function holdoutTally(db: Db): { held: number; shown: number } {
  const row = db
    .prepare(
      `SELECT
         COUNT(DISTINCT CASE WHEN shown = 1 THEN session END) AS shown,
         COUNT(DISTINCT CASE WHEN shown = 0 AND lesson_hashes != '[]' THEN session END) AS held
       FROM injections WHERE moment IN ('prompt', 'tool', 'stop') AND session IS NOT NULL`,
    )
    .get() as { shown: number; held: number };
  return { held: row.held, shown: row.shown };
}
