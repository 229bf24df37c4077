import type { Lesson } from '../core/index.ts';
import { RememError } from '../core/index.ts';
import type { Identity } from '../protocol/index.ts';
import { signRecord } from '../protocol/index.ts';
import {
  addTombstone,
  appendAudit,
  confirmedReceived,
  deleteRecord,
  findLessonsByHash,
  getLesson,
  getRecord,
  putRecord,
  type Store,
  saveLesson,
} from '../store/index.ts';

export interface Revocation {
  lesson: Lesson;
  /** The signed revocation, published with this memory's file on the next `remem share`. */
  line: string;
  /** False when the lesson had been revoked before: the same line stands. */
  fresh: boolean;
  /**
   * `origin`: this memory withdrew its own lesson. `confirmer`: a vote on a received lesson this memory confirmed,
   * which counts toward the quorum of its confirmers (more than half, at least N).
   */
  as: 'origin' | 'confirmer';
}

/** The lessons of one hash, by its local id, the full hash, or a prefix of at least 6 characters of it. */
function findLessons(store: Store, ref: string): Lesson[] {
  const { db } = store;
  let found: Lesson[] = [];
  if (/^\d+$/.test(ref)) {
    const lesson = getLesson(db, Number(ref));
    if (lesson) found = [lesson];
  }
  if (found.length === 0 && /^[0-9a-f]{6,32}$/i.test(ref)) {
    const lower = ref.toLowerCase();
    found = findLessonsByHash(db, lower);
    const exact = found.filter((lesson) => lesson.hash === lower);
    if (exact.length > 0) found = exact;
  }
  const hashes = new Set(found.map((lesson) => lesson.hash));
  if (hashes.size > 1) {
    throw new RememError('ambiguous', `${ref} matches ${hashes.size} lessons; give more of the hash`);
  }
  if (found.length === 0) throw new RememError('not_found', `no lesson ${ref}`);
  return found;
}

/** Why this memory may not vote on a received lesson: it publishes no confirmation of it. */
function notConfirmer(store: Store, lesson: Lesson): RememError {
  const cameTrue = confirmedReceived(store.db).some((row) => row.hash === lesson.hash);
  const why = cameTrue
    ? 'its prediction came true here, but no confirmation of it was published yet (`remem share` publishes one once the project is enabled)'
    : 'this memory publishes no confirmation of it';
  return new RememError(
    'not_confirmer',
    `lesson #${lesson.id} came from ${lesson.origin} and ${why}: a revocation by another memory counts only from one of its confirmers (\`remem forget\` vetoes it here)`,
  );
}

/**
 * This memory revokes a lesson: a signed revocation joins its file, and here the lesson is vetoed and its hash
 * tombstoned, so the same text is never written or received again.
 * - One of its own lessons is withdrawn: every holder that receives the revocation drops it, and its lesson
 *   record is no longer published.
 * - A received lesson counts as a vote, and only when this memory published a confirmation of it: its
 *   confirmation stays in its file beside the revocation (`share`), so it still counts among the confirmers
 *   whose quorum (more than half, at least N) revokes the lesson for every holder.
 */
export function revoke(store: Store, identity: Identity, ref: string, now: string): Revocation {
  const { db } = store;
  const found = findLessons(store, ref);
  const own = found.filter((lesson) => lesson.origin === 'self');
  const as = own.length > 0 ? 'origin' : 'confirmer';
  const lesson = as === 'origin' ? (own.find((each) => each.mergedInto === null) ?? own[0]!) : found[0]!;
  const held = getRecord(db, 'revoke', lesson.hash, identity.origin);
  if (held !== undefined) return { lesson, line: held.line, fresh: false, as };
  if (as === 'confirmer' && getRecord(db, 'confirm', lesson.hash, identity.origin) === undefined) {
    throw notConfirmer(store, lesson);
  }
  const dropped = as === 'origin' ? [lesson] : found;
  const reason =
    as === 'origin'
      ? 'revoked by this memory'
      : `revoked by this memory as a confirmer of a lesson from ${lesson.origin}`;
  const line = signRecord(identity, { revoke: lesson.hash, updated: now });
  db.transaction(() => {
    putRecord(db, {
      kind: 'revoke',
      hash: lesson.hash,
      origin: identity.origin,
      updated: now,
      line,
      receivedAt: now,
    });
    if (as === 'origin') deleteRecord(db, 'lesson', lesson.hash, identity.origin);
    addTombstone(db, lesson.hash, reason, lesson.id, now);
    for (const each of dropped) {
      if (each.vetoedAt === null) saveLesson(db, { ...each, vetoedAt: now, updatedAt: now });
      appendAudit(db, {
        at: now,
        actor: 'person',
        action: 'revoke',
        rules: 'revoke-1',
        lessonId: each.id,
        hash: each.hash,
        reason:
          as === 'origin'
            ? `${reason}: a signed revocation is published with its file`
            : `${reason}: a signed vote is published with its file, beside its confirmation`,
      });
    }
  })();
  return { lesson: { ...lesson, vetoedAt: lesson.vetoedAt ?? now }, line, fresh: true, as };
}
