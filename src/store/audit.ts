import type { Db } from './open.ts';

export type AuditActor = 'sleep' | 'person' | 'receive' | 'render' | 'share';
export type AuditAction =
  | 'add'
  | 'join'
  | 'merge'
  | 'supersede'
  | 'veto'
  | 'receive'
  | 'approve'
  | 'reject'
  | 'archive'
  | 'refuse'
  | 'confirm'
  | 'fail'
  | 'relate'
  | 'revoke'
  | 'corroborate'
  | 'reword';

export interface AuditEntry {
  at: string;
  actor: AuditActor;
  action: AuditAction;
  /** The version of the rules that decided. */
  rules: string;
  lessonId?: number | null;
  hash?: string | null;
  reason?: string;
  /** Ids it superseded, merged or conflicted with. */
  related?: number[];
  refersTo?: number | null;
}

/** Appends one write decision. The table refuses UPDATE and DELETE. */
export function appendAudit(db: Db, entry: AuditEntry): number {
  return Number(
    db
      .prepare(
        `INSERT INTO audit (at, actor, action, rules, lesson_id, hash, reason, related, refers_to)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        entry.at,
        entry.actor,
        entry.action,
        entry.rules,
        entry.lessonId ?? null,
        entry.hash ?? null,
        entry.reason ?? '',
        JSON.stringify(entry.related ?? []),
        entry.refersTo ?? null,
      ).lastInsertRowid,
  );
}

export interface AuditRow {
  id: number;
  at: string;
  actor: AuditActor;
  action: AuditAction;
  rules: string;
  lesson_id: number | null;
  hash: string | null;
  reason: string;
  related: string;
  refers_to: number | null;
}

export function auditOfLesson(db: Db, lessonId: number): AuditRow[] {
  return db.prepare('SELECT * FROM audit WHERE lesson_id = ? ORDER BY id').all(lessonId) as AuditRow[];
}

/** Whether the same decision about the same lesson was already written: a repeated run need not repeat it. */
export function hasAudit(
  db: Db,
  entry: Pick<AuditEntry, 'actor' | 'action' | 'reason'> & { lessonId?: number | null },
): boolean {
  const row = db
    .prepare(`SELECT 1 FROM audit WHERE actor = ? AND action = ? AND reason = ? AND lesson_id IS ? LIMIT 1`)
    .get(entry.actor, entry.action, entry.reason ?? '', entry.lessonId ?? null);
  return row !== undefined;
}
