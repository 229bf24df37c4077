import type { Db } from './open.ts';

export function recordSleep(db: Db, at: string, space: string, report: unknown): number {
  return Number(
    db
      .prepare('INSERT INTO sleeps (at, space, report) VALUES (?, ?, ?)')
      .run(at, space, JSON.stringify(report)).lastInsertRowid,
  );
}

/** The night's report, completed by work done after its transaction (the lessons' wording). */
export function replaceSleepReport(db: Db, id: number, report: unknown): void {
  db.prepare('UPDATE sleeps SET report = ? WHERE id = ?').run(JSON.stringify(report), id);
}

export function lastSleep(db: Db): { id: number; at: string; space: string; report: unknown } | undefined {
  const row = db.prepare('SELECT id, at, space, report FROM sleeps ORDER BY id DESC LIMIT 1').get() as
    | { id: number; at: string; space: string; report: string }
    | undefined;
  return row && { ...row, report: JSON.parse(row.report) as unknown };
}
