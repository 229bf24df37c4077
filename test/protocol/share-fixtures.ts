import type { LessonKind } from '../../src/core/index.ts';
import { defaultParams, lessonHash } from '../../src/core/index.ts';
import { type Identity, type ParsedRecord, parseRecordLine } from '../../src/protocol/index.ts';
import type { IncomingFile } from '../../src/share/index.ts';
import {
  type Db,
  insertLesson,
  insertPrediction,
  openStore,
  resolvePrediction,
  type Store,
} from '../../src/store/index.ts';

export const params = defaultParams;

export function at(day: number, hour = 10): string {
  return new Date(Date.UTC(2026, 10, 1 + day, hour)).toISOString();
}

export function openTempStore(dir: string): Store {
  return openStore(dir);
}

/** One of this memory's own lessons, as sleep writes it. */
export function ownLesson(
  db: Db,
  fields: { kind?: LessonKind; text: string; project?: string | null; strength?: number; seen?: number },
): number {
  const kind = fields.kind ?? 'error';
  return insertLesson(db, {
    hash: lessonHash(kind, fields.text),
    kind,
    text: fields.text,
    seen: fields.seen ?? 2,
    strength: fields.strength ?? 1.5,
    project: fields.project === undefined ? '/work/project' : fields.project,
    origin: 'self',
    review: 'approved',
    happenedAt: at(0),
    createdAt: at(0),
    updatedAt: at(0),
    touchedAt: at(0),
    decayedAt: at(0),
    rules: 'test',
  });
}

/** A session episode of this memory, in `project`, that met a lesson's prediction. */
export function confirmHere(db: Db, lessonId: number, project: string | null, when: string): void {
  const episode = Number(
    db
      .prepare(
        `INSERT INTO episodes (key, kind, origin, agent, session, project, happened_at, recorded_at, title, text, touched_at)
         VALUES (?, 'error', 'event', 'test', 's', ?, ?, ?, 't', 't', ?)`,
      )
      .run(`e-${lessonId}-${when}`, project, when, when, when).lastInsertRowid,
  );
  const prediction = insertPrediction(db, lessonId, at(0), at(14));
  resolvePrediction(db, prediction, 'confirmed', when, episode);
}

/** Lines as a reader hands them to `receive`: each checked by `parseRecordLine`. */
export function incoming(source: string, origin: string, lines: readonly string[]): IncomingFile {
  const records: ParsedRecord[] = [];
  const refused: { line: number; code: string; reason: string }[] = [];
  lines.forEach((line, index) => {
    const parsed = parseRecordLine(line);
    if ('refused' in parsed) refused.push({ line: index + 1, code: parsed.code, reason: parsed.refused });
    else records.push(parsed);
  });
  return { source, origin, records, refused, problem: null };
}

export function fileOf(identity: Identity, lines: readonly string[]): IncomingFile {
  return incoming(`${identity.origin}.jsonl`, identity.origin, lines);
}
