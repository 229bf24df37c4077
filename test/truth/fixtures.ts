import type { Lesson, LessonKind, ReviewState } from '../../src/core/index.ts';
import { lessonHash } from '../../src/core/index.ts';
import {
  type Db,
  insertLesson,
  insertPrediction,
  insertRelation,
  openStore,
  type Relation,
  resolvePrediction,
} from '../../src/store/index.ts';
import type { LessonFacts } from '../../src/truth/index.ts';

export const T0 = '2026-11-01T10:00:00.000Z';

export function day(n: number, hour = 10): string {
  return new Date(Date.UTC(2026, 10, 1 + n, hour)).toISOString();
}

export interface LessonSpec {
  id?: number;
  text?: string;
  kind?: LessonKind;
  project?: string | null;
  origin?: string;
  review?: ReviewState;
  at?: string;
  strength?: number;
  archived?: boolean;
  mergedInto?: number | null;
  vetoedAt?: string | null;
}

/** A lesson as the projection reads it, built in code. */
export function lesson(spec: LessonSpec = {}): Lesson {
  const kind = spec.kind ?? 'correction';
  const text = spec.text ?? `The person told the agent: "lesson ${spec.id ?? 1}"`;
  const at = spec.at ?? T0;
  return {
    id: spec.id ?? 1,
    hash: lessonHash(kind, text),
    kind,
    text,
    seen: 1,
    strength: spec.strength ?? 1,
    project: spec.project ?? null,
    origin: spec.origin ?? 'self',
    review: spec.review ?? 'approved',
    happenedAt: at,
    createdAt: at,
    updatedAt: at,
    touchedAt: at,
    decayedAt: at,
    archived: spec.archived ?? false,
    mergedInto: spec.mergedInto ?? null,
    vetoedAt: spec.vetoedAt ?? null,
  };
}

export function facts(spec: LessonSpec & Partial<Omit<LessonFacts, 'lesson'>> = {}): LessonFacts {
  return {
    lesson: lesson(spec),
    confirmations: spec.confirmations ?? 0,
    failures: spec.failures ?? 0,
    open: spec.open ?? 0,
    lastConfirmedAt: spec.lastConfirmedAt ?? null,
    lastFailedAt: spec.lastFailedAt ?? null,
    lastSeenAt: spec.lastSeenAt ?? null,
  };
}

let nextRelation = 1;
export function relation(kind: Relation['kind'], fromId: number, toId: number, at = T0): Relation {
  return {
    id: nextRelation++,
    kind,
    fromId,
    toId,
    actor: 'person',
    rules: 'test',
    reason: '',
    happenedAt: at,
    recordedAt: at,
  };
}

/** Inserts a lesson row in a real store and returns its id. */
export function storeLesson(db: Db, spec: LessonSpec = {}): number {
  const built = lesson(spec);
  const { id: _id, archived, mergedInto, vetoedAt, ...rest } = built;
  const id = insertLesson(db, { ...rest, rules: 'test' });
  if (archived || mergedInto !== null || vetoedAt !== null) {
    db.prepare('UPDATE lessons SET archived = ?, merged_into = ?, vetoed_at = ? WHERE id = ?').run(
      archived ? 1 : 0,
      mergedInto,
      vetoedAt,
      id,
    );
  }
  return id;
}

/** A received lesson as another memory's sender stores it: the review state is the column's default. */
export function storeReceived(
  db: Db,
  spec: { text: string; origin?: string; at?: string; kind?: LessonKind },
): number {
  const kind = spec.kind ?? 'surprise';
  const at = spec.at ?? T0;
  return Number(
    db
      .prepare(
        `INSERT INTO lessons (hash, kind, text, seen, strength, project, origin, happened_at, created_at, updated_at,
           touched_at, decayed_at, rules)
         VALUES (?, ?, ?, 0, 0.5, NULL, ?, ?, ?, ?, ?, ?, 'test')`,
      )
      .run(
        lessonHash(kind, spec.text),
        kind,
        spec.text,
        spec.origin ?? 'a1b2c3d4e5f60718',
        at,
        at,
        at,
        at,
        at,
      ).lastInsertRowid,
  );
}

/** A prediction made at `made` and resolved `state` at `resolved`. */
export function storePrediction(
  db: Db,
  lessonId: number,
  made: string,
  outcome?: { state: 'confirmed' | 'failed'; at: string },
): number {
  const id = insertPrediction(db, lessonId, made, made);
  if (outcome) resolvePrediction(db, id, outcome.state, outcome.at, null);
  return id;
}

/** Two stored corrections that say opposite things, the second refuting the first, as the person related them. */
export const GECKO = {
  yes: 'The person told the agent: "the gecko cache is shared between workers"',
  no: 'The person told the agent: "the gecko cache is not shared between workers"',
};

export function storeContradiction(home: string): void {
  const store = openStore(home);
  const a = storeLesson(store.db, { id: 1, text: GECKO.yes });
  const b = storeLesson(store.db, { id: 2, text: GECKO.no });
  insertRelation(store.db, {
    kind: 'refutes',
    fromId: b,
    toId: a,
    actor: 'person',
    rules: 'test',
    reason: '',
    happenedAt: day(1),
    recordedAt: day(1),
  });
  store.close();
}
