import type { Lesson } from '../core/index.ts';
import { RememError } from '../core/index.ts';
import {
  addTombstone,
  appendAudit,
  deleteRecord,
  findLessonsByHash,
  getLesson,
  getRecord,
  putRecord,
  type Store,
  saveLesson,
} from '../store/index.ts';
import type { Identity } from './keys.ts';
import { signRecord } from './records.ts';

export interface Revocation {
  lesson: Lesson;
  /** The signed revocation, published with this memory's file on the next `remem share`. */
  line: string;
  /** False when the lesson had been revoked before: the same line stands. */
  fresh: boolean;
}

/** One lesson by its local id, its full hash, or a prefix of at least 6 characters of it. */
function findOwnLesson(store: Store, ref: string): Lesson {
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
  const own = found.filter((lesson) => lesson.origin === 'self');
  if (own.length === 0 && found.length > 0) {
    const lesson = found[0]!;
    throw new RememError(
      'not_origin',
      `lesson #${lesson.id} came from ${lesson.origin}: only its origin revokes it (\`remem forget\` vetoes it here)`,
    );
  }
  if (own.length === 0) throw new RememError('not_found', `no lesson ${ref}`);
  return own.find((lesson) => lesson.mergedInto === null) ?? own[0]!;
}

/**
 * This memory withdraws one of its own lessons: a signed revocation joins its file (every holder that receives
 * it drops the lesson and tombstones the hash), its lesson record is no longer published, and here the lesson
 * is vetoed and its hash tombstoned, so the same text is never written or received again.
 */
export function revoke(store: Store, identity: Identity, ref: string, now: string): Revocation {
  const { db } = store;
  const lesson = findOwnLesson(store, ref);
  const held = getRecord(db, 'revoke', lesson.hash, identity.origin);
  if (held !== undefined) return { lesson, line: held.line, fresh: false };
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
    deleteRecord(db, 'lesson', lesson.hash, identity.origin);
    addTombstone(db, lesson.hash, 'revoked by this memory', lesson.id, now);
    if (lesson.vetoedAt === null) saveLesson(db, { ...lesson, vetoedAt: now, updatedAt: now });
    appendAudit(db, {
      at: now,
      actor: 'person',
      action: 'revoke',
      rules: 'revoke-1',
      lessonId: lesson.id,
      hash: lesson.hash,
      reason: 'revoked by this memory: a signed revocation is published with its file',
    });
  })();
  return { lesson: { ...lesson, vetoedAt: lesson.vetoedAt ?? now }, line, fresh: true };
}
