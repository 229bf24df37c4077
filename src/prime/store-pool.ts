import type { Config, Lesson } from '../core/index.ts';
import { cosine, createSpace, fromBlob, hashedSpace, type Space } from '../embed/index.ts';
import { type Db, lastSleep, offerShare, type StoredVector, vectorsInSpace } from '../store/index.ts';
import {
  type PrimeRows,
  ruleSubjects,
  type StartParams,
  sessionStart,
  startBudget,
  visibleToAgent,
} from '../truth/index.ts';

/**
 * What a hook compares with when there is no current prime index: the store itself, read through the
 * projection. Loaded only then, so a hook answered from the index never loads SQLite.
 */

/** The space the store's vectors are in (the last sleep's); the hashed space before any sleep. */
export function storeSpace(db: Db, config: Config): Space {
  const name = lastSleep(db)?.space;
  if (!name || name === 'hashed') return hashedSpace(config.params);
  const configured = createSpace(config.embed, config.params);
  return configured.name === name ? configured : hashedSpace(config.params);
}

function lessonVector(stored: Map<number, StoredVector>, lesson: Lesson, space: Space): Float32Array | null {
  const vector = stored.get(lesson.id);
  if (vector) return fromBlob(vector.data, vector.dims);
  return space.embedSync ? space.embedSync(lesson.text) : null;
}

/** Every lesson (or open question) an agent may see in `project`, in the projection's order. */
export function poolFromStore(
  db: Db,
  now: string,
  project: string | null,
  space: Space,
  params: StartParams,
): PrimeRows {
  const visible = visibleToAgent(db, { now, scope: { project } });
  const loaded = new Set(sessionStart(visible, startBudget(db, project, params)));
  const items = visible.map((item) => {
    const lessons = item.type === 'lesson' ? [item.lesson] : item.lessons;
    const share =
      item.type === 'lesson' && item.lesson.kind === 'correction' ? offerShare(db, item.lesson.id) : null;
    return {
      lessons,
      hashes: lessons.map((lesson) => lesson.hash),
      text: item.type === 'lesson' ? item.lesson.text : item.text,
      kind: lessons[0]!.kind,
      question: item.type === 'question',
      sources: share?.sources ?? 0,
      afterOffer: share?.afterOffer ?? 0,
      startOf: loaded.has(item) ? [project] : undefined,
    };
  });
  return {
    count: items.length,
    kind: (row) => items[row]!.kind,
    question: (row) => items[row]!.question,
    sources: (row) => items[row]!.sources,
    afterOffer: (row) => items[row]!.afterOffer,
    reaching(query, cut) {
      const stored = vectorsInSpace(db, 'lesson', space.name);
      return items.flatMap((item, row) => {
        let best = 0;
        for (const lesson of item.lessons) {
          const vector = lessonVector(stored, lesson, space);
          if (vector) best = Math.max(best, cosine(vector, query));
        }
        return best >= cut ? [{ row, similarity: best }] : [];
      });
    },
    aboutSubjects: (mask, kind, limit) => {
      const found: number[] = [];
      if (mask === 0) return found;
      for (const [row, item] of items.entries()) {
        if (found.length >= limit) break;
        if (item.kind !== kind || item.question) continue;
        if ((ruleSubjects(item.text).mask & mask) !== 0) found.push(row);
      }
      return found;
    },
    detail: (row) => {
      const { hashes, text, startOf } = items[row]!;
      return startOf ? { hashes, text, startOf } : { hashes, text };
    },
  };
}
