import type { LessonLine } from '../core/index.ts';
import type { Db } from './open.ts';

/** Records consent to share a project's lessons. Returns false when it was already given. */
export function enableSharing(db: Db, project: string, at: string): boolean {
  return (
    db.prepare('INSERT OR IGNORE INTO sharing_projects (project, enabled_at) VALUES (?, ?)').run(project, at)
      .changes > 0
  );
}

/** Withdraws consent for a project. Returns false when none was given. */
export function disableSharing(db: Db, project: string): boolean {
  return db.prepare('DELETE FROM sharing_projects WHERE project = ?').run(project).changes > 0;
}

/** The projects whose lessons may be shared, oldest consent first. */
export function sharedProjects(db: Db): { project: string; enabledAt: string }[] {
  return db
    .prepare('SELECT project, enabled_at AS enabledAt FROM sharing_projects ORDER BY enabled_at, project')
    .all() as { project: string; enabledAt: string }[];
}

export type StoredLayerLevel = 'common' | 'domain';

/** A lessons file an agent runs with, below its own memory. */
export interface StoredLayer {
  path: string;
  level: StoredLayerLevel;
  addedAt: string;
  /** When its lessons were last read into the store; null before the first read. */
  readAt: string | null;
}

/** A lesson of a layer as last read: what every path an agent reads composes with this memory's own. */
export interface StoredLayerLesson
  extends Pick<LessonLine, 'hash' | 'kind' | 'text' | 'seen' | 'strength' | 'updated'> {
  /** The row; a layer lesson has no id among this memory's own lessons. */
  row: number;
  path: string;
  level: StoredLayerLevel;
  origin: string | null;
  /** Whether the person approved this lesson of this layer; until then no agent is shown it. */
  approved: boolean;
}

/** The lessons of one layer as read and checked now: they replace what was read before. */
export function replaceLayerLessons(
  db: Db,
  path: string,
  lessons: readonly Omit<StoredLayerLesson, 'row' | 'path' | 'level' | 'approved'>[],
  at: string,
): void {
  const insert = db.prepare(
    `INSERT INTO layer_lessons (path, hash, kind, text, seen, strength, updated, origin)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (path, hash) DO UPDATE SET kind = excluded.kind, text = excluded.text, seen = excluded.seen,
       strength = excluded.strength, updated = excluded.updated, origin = excluded.origin
     WHERE excluded.strength > layer_lessons.strength`,
  );
  db.transaction(() => {
    db.prepare('DELETE FROM layer_lessons WHERE path = ?').run(path);
    for (const lesson of lessons) {
      insert.run(
        path,
        lesson.hash,
        lesson.kind,
        lesson.text,
        lesson.seen,
        lesson.strength,
        lesson.updated,
        lesson.origin,
      );
    }
    db.prepare('UPDATE layers SET read_at = ? WHERE path = ?').run(at, path);
  })();
}

/**
 * The lessons of every listed layer, in the layers' order (common before domain, then as added) and each
 * file's own order. Left out, as anywhere else: a hash tombstoned here (vetoed, revoked, refused), and a
 * signed lesson its origin revoked. A line with no date of its own is dated by its layer's last read.
 */
export function listLayerLessons(db: Db): StoredLayerLesson[] {
  return db
    .prepare(
      `SELECT ll.rowid AS row, ll.path, l.level, ll.hash, ll.kind, ll.text, ll.seen, ll.strength,
         CASE WHEN ll.updated = '' THEN COALESCE(l.read_at, l.added_at) ELSE ll.updated END AS updated, ll.origin,
         EXISTS (SELECT 1 FROM layer_approvals a WHERE a.path = ll.path AND a.hash = ll.hash) AS approved
       FROM layer_lessons ll JOIN layers l ON l.path = ll.path
       WHERE ll.hash NOT IN (SELECT hash FROM tombstones)
         AND NOT EXISTS (SELECT 1 FROM records r WHERE r.kind = 'revoke' AND r.hash = ll.hash AND r.origin = ll.origin)
       ORDER BY CASE l.level WHEN 'common' THEN 0 ELSE 1 END, l.added_at, l.path, ll.rowid`,
    )
    .all()
    .map((row) => ({
      ...(row as StoredLayerLesson),
      approved: (row as { approved: number }).approved === 1,
    }));
}

/** The person approves every lesson the layer holds now; returns how many were waiting. */
export function approveLayer(db: Db, path: string, at: string): number {
  return db
    .prepare(
      `INSERT OR IGNORE INTO layer_approvals (path, hash, approved_at)
       SELECT path, hash, ? FROM layer_lessons WHERE path = ?`,
    )
    .run(at, path).changes;
}

/** Adds a layer, or moves it to another level. */
export function putLayer(db: Db, path: string, level: StoredLayerLevel, at: string): void {
  db.prepare(
    `INSERT INTO layers (path, level, added_at) VALUES (?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET level = excluded.level`,
  ).run(path, level, at);
}

/** Returns false when no such layer was listed. Its lessons go with it. */
export function deleteLayer(db: Db, path: string): boolean {
  return db.transaction(() => {
    db.prepare('DELETE FROM layer_lessons WHERE path = ?').run(path);
    db.prepare('DELETE FROM layer_approvals WHERE path = ?').run(path);
    return db.prepare('DELETE FROM layers WHERE path = ?').run(path).changes > 0;
  })();
}

/** The layers, common before domain, then in the order they were added. */
export function listLayers(db: Db): StoredLayer[] {
  return db
    .prepare(
      `SELECT path, level, added_at AS addedAt, read_at AS readAt FROM layers
       ORDER BY CASE level WHEN 'common' THEN 0 ELSE 1 END, added_at, path`,
    )
    .all() as StoredLayer[];
}
