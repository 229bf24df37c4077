import type { Db } from './open.ts';

/**
 * How one lesson bears on another. `from supersedes to`: `from` replaces it. `from refutes to`: they say
 * opposite things about one subject. `from supports to`: they agree. `from derived_from to`: a theme and a
 * lesson it took in.
 */
export type RelationKind = 'supports' | 'refutes' | 'supersedes' | 'derived_from';
export type RelationActor = 'sleep' | 'person';

export interface Relation {
  id: number;
  kind: RelationKind;
  fromId: number;
  toId: number;
  actor: RelationActor;
  /** The version of the rules that decided. */
  rules: string;
  reason: string;
  /** When what it is about happened. */
  happenedAt: string;
  /** When Remem learned it. */
  recordedAt: string;
}

interface RelationRow {
  id: number;
  kind: RelationKind;
  from_id: number;
  to_id: number;
  actor: RelationActor;
  rules: string;
  reason: string;
  happened_at: string;
  recorded_at: string;
}

function fromRow(row: RelationRow): Relation {
  return {
    id: row.id,
    kind: row.kind,
    fromId: row.from_id,
    toId: row.to_id,
    actor: row.actor,
    rules: row.rules,
    reason: row.reason,
    happenedAt: row.happened_at,
    recordedAt: row.recorded_at,
  };
}

/** Refutes and supports read the same both ways; supersedes and derived_from have a direction. */
const symmetric: ReadonlySet<RelationKind> = new Set(['refutes', 'supports']);

/** The stored relation of this kind between the two lessons (either way round for a symmetric kind). */
export function findRelation(db: Db, kind: RelationKind, fromId: number, toId: number): Relation | undefined {
  const row = db
    .prepare(
      `SELECT * FROM relations WHERE kind = @kind
         AND ((from_id = @fromId AND to_id = @toId) OR (@symmetric = 1 AND from_id = @toId AND to_id = @fromId))
       ORDER BY id LIMIT 1`,
    )
    .get({ kind, fromId, toId, symmetric: symmetric.has(kind) ? 1 : 0 }) as RelationRow | undefined;
  return row && fromRow(row);
}

/** Appends a relation; returns it, and whether it was new (the same relation is stored once). */
export function insertRelation(
  db: Db,
  relation: Omit<Relation, 'id'>,
): { relation: Relation; added: boolean } {
  const known = findRelation(db, relation.kind, relation.fromId, relation.toId);
  if (known) return { relation: known, added: false };
  const id = Number(
    db
      .prepare(
        `INSERT INTO relations (kind, from_id, to_id, actor, rules, reason, happened_at, recorded_at)
         VALUES (@kind, @fromId, @toId, @actor, @rules, @reason, @happenedAt, @recordedAt)`,
      )
      .run(relation).lastInsertRowid,
  );
  return { relation: { ...relation, id }, added: true };
}

/** Relations of the given kinds (all by default) that Remem knew at `asOf` (all by default), oldest first. */
export function listRelations(
  db: Db,
  filter: { kinds?: readonly RelationKind[]; asOf?: string } = {},
): Relation[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.kinds) {
    where.push(`kind IN (${filter.kinds.map(() => '?').join(', ')})`);
    params.push(...filter.kinds);
  }
  if (filter.asOf !== undefined) {
    where.push('recorded_at <= ?');
    params.push(filter.asOf);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return (db.prepare(`SELECT * FROM relations ${clause} ORDER BY id`).all(...params) as RelationRow[]).map(
    fromRow,
  );
}

/** Every relation that names the lesson, either side. */
export function relationsOf(db: Db, lessonId: number): Relation[] {
  return (
    db
      .prepare('SELECT * FROM relations WHERE from_id = ? OR to_id = ? ORDER BY id')
      .all(lessonId, lessonId) as RelationRow[]
  ).map(fromRow);
}
