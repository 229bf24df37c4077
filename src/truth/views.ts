import type { Config, Params } from '../core/index.ts';
import { createSpace, type Space } from '../embed/index.ts';
import { type Store, vectorsInSpace } from '../store/index.ts';
import { writeLessonsFile } from './lessons-file.ts';
import { primeIndexSpace, writePrimeIndex } from './prime-index.ts';
import { visibleToAgent } from './visible.ts';

/**
 * Rewrites everything compiled from what agents may see: `lessons.jsonl` and the hooks' index. Called after
 * every change to it (a sleep, a veto, a review, a relation, a revocation, a layer added or removed).
 * `embedded`: vectors by hash for lessons the store holds none for (see `embedUnstored`).
 */
export function refreshViews(
  store: Store,
  now: string,
  params: Pick<Params, 'hashedDims' | 'render'>,
  embedded?: ReadonlyMap<string, Float32Array>,
): { lessons: number; primeIndex: number } {
  return {
    lessons: writeLessonsFile(store, now),
    primeIndex: writePrimeIndex(store, now, params.hashedDims, embedded, params.render),
  };
}

/**
 * Embeds, in `space`, the text of each lesson an agent may see that has no vector of that space in the store —
 * a layer's lessons, which the store never embeds — so the hooks can prime them by meaning. Only when `space`
 * is a model space and the one the index is written in (the hashed space needs no call: the index embeds
 * those itself). A failed call throws; the caller decides (the index then keeps the vectors it had).
 */
export async function embedUnstored(
  store: Store,
  now: string,
  space: Space,
): Promise<Map<string, Float32Array>> {
  const found = new Map<string, Float32Array>();
  if (space.kind === 'hashed' || space.name !== primeIndexSpace(store)) return found;
  const stored = vectorsInSpace(store.db, 'lesson', space.name);
  const missing = new Map<string, string>();
  for (const item of visibleToAgent(store.db, { now, scope: { project: null, allProjects: true } })) {
    const lessons = item.type === 'lesson' ? [item.lesson] : item.lessons;
    for (const lesson of lessons) if (!stored.has(lesson.id)) missing.set(lesson.hash, lesson.text);
  }
  if (missing.size === 0) return found;
  const vectors = await space.embed([...missing.values()]);
  [...missing.keys()].forEach((hash, index) => {
    const vector = vectors[index];
    if (vector) found.set(hash, vector);
  });
  return found;
}

/**
 * `refreshViews` with the layer lessons embedded in the configured space first. A model that does not answer
 * fails open: the views are written all the same, the index keeping the vectors it had, and the problem is
 * returned to be said.
 */
export async function refreshViewsEmbedding(
  store: Store,
  now: string,
  config: Pick<Config, 'embed' | 'params'>,
): Promise<{ lessons: number; primeIndex: number; problem: string | null }> {
  const space = createSpace(config.embed, config.params);
  let embedded = new Map<string, Float32Array>();
  let problem: string | null = null;
  try {
    embedded = await embedUnstored(store, now, space);
  } catch (error) {
    problem = `layer lessons not embedded in ${space.name}: ${(error as Error).message}`;
  }
  return { ...refreshViews(store, now, config.params, embedded), problem };
}
