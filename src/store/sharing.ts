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
}

/** Adds a layer, or moves it to another level. */
export function putLayer(db: Db, path: string, level: StoredLayerLevel, at: string): void {
  db.prepare(
    `INSERT INTO layers (path, level, added_at) VALUES (?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET level = excluded.level`,
  ).run(path, level, at);
}

/** Returns false when no such layer was listed. */
export function deleteLayer(db: Db, path: string): boolean {
  return db.prepare('DELETE FROM layers WHERE path = ?').run(path).changes > 0;
}

/** The layers, common before domain, then in the order they were added. */
export function listLayers(db: Db): StoredLayer[] {
  return db
    .prepare(
      `SELECT path, level, added_at AS addedAt FROM layers
       ORDER BY CASE level WHEN 'common' THEN 0 ELSE 1 END, added_at, path`,
    )
    .all() as StoredLayer[];
}
