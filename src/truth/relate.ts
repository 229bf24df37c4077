import type { Lesson } from '../core/index.ts';
import { RememError } from '../core/index.ts';
import { appendAudit, insertRelation, type Relation, type Store } from '../store/index.ts';
import { findLesson } from './forget.ts';

export type PersonRelation = 'refutes' | 'supersedes' | 'supports';
export const personRelations: readonly PersonRelation[] = ['refutes', 'supersedes', 'supports'];

export const RELATE_RULES = 'relate-1';

/**
 * The person says how two lessons bear on each other: `a supersedes b` (a replaces it), `a refutes b`
 * (they cannot both hold: agents are asked, not told), `a supports b`. Appended to the relations and
 * audited with the person as actor; the same relation twice is stored once.
 */
export function relateLessons(
  store: Store,
  input: { from: string; kind: PersonRelation; to: string; now: string },
): { relation: Relation; added: boolean; from: Lesson; to: Lesson } {
  if (!personRelations.includes(input.kind)) {
    throw new RememError('bad_relation', `a relation is one of ${personRelations.join(', ')}: ${input.kind}`);
  }
  const from = findLesson(store, input.from);
  const to = findLesson(store, input.to);
  if (from.id === to.id) throw new RememError('same_lesson', 'a lesson cannot be related to itself');
  for (const lesson of [from, to]) {
    if (lesson.mergedInto !== null) {
      throw new RememError(
        'merged',
        `lesson ${lesson.id} was merged into lesson ${lesson.mergedInto}; relate ${lesson.mergedInto} instead`,
      );
    }
  }
  const { db } = store;
  return db.transaction(() => {
    const reason = `the person said lesson ${from.id} ${input.kind} lesson ${to.id}`;
    const stored = insertRelation(db, {
      kind: input.kind,
      fromId: from.id,
      toId: to.id,
      actor: 'person',
      rules: RELATE_RULES,
      reason,
      happenedAt: input.now,
      recordedAt: input.now,
    });
    if (stored.added) {
      appendAudit(db, {
        at: input.now,
        actor: 'person',
        action: input.kind === 'supersedes' ? 'supersede' : 'relate',
        rules: RELATE_RULES,
        lessonId: from.id,
        hash: from.hash,
        reason,
        related: [to.id],
      });
    }
    return { ...stored, from, to };
  })();
}
