import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/index.ts';
import { projectTruth } from './project.ts';

/**
 * `lessons.jsonl`: this memory's own current lessons in the wire format of protocol §1, rewritten after
 * every change. Read through the projection, so a superseded, contradicted, vetoed or archived lesson is not
 * in it. Nothing from the raw stream beyond the lesson sentence.
 */
export function writeLessonsFile(store: Store, now: string): number {
  const rows = projectTruth(store.db, { now, scope: { project: null, allProjects: true } }).filter(
    (row) =>
      row.lesson.origin === 'self' &&
      row.validity === 'current' &&
      row.retention === 'active' &&
      row.lesson.review === 'approved' &&
      row.lesson.vetoedAt === null &&
      row.lesson.mergedInto === null,
  );
  const lines = rows.map((row) =>
    JSON.stringify({
      id: row.lesson.hash,
      text: row.lesson.text,
      kind: row.lesson.kind,
      seen: row.lesson.seen,
      strength: Math.round(row.lesson.strength * 1000) / 1000,
      updated: row.lesson.updatedAt,
    }),
  );
  const path = join(store.home, 'lessons.jsonl');
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
  renameSync(temporary, path);
  return lines.length;
}
