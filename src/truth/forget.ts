import type { Lesson } from '../core/index.ts';
import { defaultParams, RememError } from '../core/index.ts';
import {
  addTombstone,
  appendAudit,
  findLessonsByHash,
  getLesson,
  listLessons,
  type Store,
  saveLesson,
} from '../store/index.ts';
import { writePrimeIndex } from './prime-index.ts';
import { visibleToAgent } from './visible.ts';

/** Finds one lesson by its local id or by (a prefix of at least 6 characters of) its hash. */
const DEFAULT_DIMS = defaultParams.hashedDims;

export function findLesson(store: Store, ref: string): Lesson {
  if (/^\d+$/.test(ref)) {
    const lesson = getLesson(store.db, Number(ref));
    if (lesson) return lesson;
  }
  if (/^[0-9a-f]{6,32}$/i.test(ref)) {
    const found = findLessonsByHash(store.db, ref.toLowerCase());
    if (found.length === 1) return found[0]!;
    if (found.length > 1)
      throw new RememError('ambiguous', `${ref} matches ${found.length} lessons; give more of the hash`);
  }
  throw new RememError('not_found', `no lesson ${ref}`);
}

/**
 * The owner's veto: the lesson is never written again, nor shown from a layer. Its hash becomes a tombstone, so the same text is
 * refused wherever it comes from; a veto on a merged lesson holds for its theme and every part of it.
 */
/**
 * A veto of a lesson this memory does not hold but a layer brings: its hash is tombstoned, and no layer shows
 * it again (nor any memory sends it here again).
 */
function forgetLayerLesson(store: Store, ref: string, now: string, reason: string): Lesson[] | null {
  if (!/^[0-9a-f]{6,32}$/i.test(ref)) return null;
  const prefix = ref.toLowerCase();
  const found = new Map<string, { lesson: Lesson; source: string }>();
  for (const item of visibleToAgent(store.db, { now, scope: { project: null, allProjects: true } })) {
    if (item.type === 'lesson' && item.layer && item.lesson.hash.startsWith(prefix))
      found.set(item.lesson.hash, { lesson: item.lesson, source: item.layer.source });
  }
  if (found.size > 1)
    throw new RememError('ambiguous', `${ref} matches ${found.size} layer lessons; give more of the hash`);
  const [match] = found.values();
  if (!match) return null;
  const { db } = store;
  db.transaction(() => {
    addTombstone(db, match.lesson.hash, reason, null, now);
    appendAudit(db, {
      at: now,
      actor: 'person',
      action: 'veto',
      rules: 'veto-1',
      lessonId: null,
      hash: match.lesson.hash,
      reason: `${reason}: a lesson of the layer ${match.source}`,
    });
  })();
  writePrimeIndex(store, now, DEFAULT_DIMS);
  return [{ ...match.lesson, vetoedAt: now }];
}

export function forget(store: Store, ref: string, now: string, reason = 'vetoed by the owner'): Lesson[] {
  const { db } = store;
  let target: Lesson;
  try {
    target = findLesson(store, ref);
  } catch (error) {
    const layered =
      error instanceof RememError && error.code === 'not_found'
        ? forgetLayerLesson(store, ref, now, reason)
        : null;
    if (layered) return layered;
    throw error;
  }
  const all = new Map(listLessons(db).map((lesson) => [lesson.id, lesson]));
  let root = target;
  while (root.mergedInto !== null && all.has(root.mergedInto)) root = all.get(root.mergedInto)!;
  const family = new Set<number>([target.id, root.id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const lesson of all.values()) {
      if (lesson.mergedInto !== null && family.has(lesson.mergedInto) && !family.has(lesson.id)) {
        family.add(lesson.id);
        grew = true;
      }
    }
  }
  const vetoed: Lesson[] = [];
  db.transaction(() => {
    for (const id of family) {
      const lesson = all.get(id)!;
      addTombstone(db, lesson.hash, reason, lesson.id, now);
      if (lesson.vetoedAt !== null) continue;
      lesson.vetoedAt = now;
      saveLesson(db, lesson);
      vetoed.push(lesson);
      appendAudit(db, {
        at: now,
        actor: 'person',
        action: 'veto',
        rules: 'veto-1',
        lessonId: lesson.id,
        hash: lesson.hash,
        reason: id === target.id ? reason : `${reason}: part of the same theme as lesson ${target.id}`,
        related: [...family].filter((other) => other !== id),
      });
    }
  })();
  // The hooks read a compiled index of what agents may see: a veto holds there at once.
  if (vetoed.length) writePrimeIndex(store, now, DEFAULT_DIMS);
  return vetoed;
}
