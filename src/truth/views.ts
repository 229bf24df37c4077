import type { Store } from '../store/index.ts';
import { writeLessonsFile } from './lessons-file.ts';
import { writePrimeIndex } from './prime-index.ts';

/**
 * Rewrites everything compiled from what agents may see: `lessons.jsonl` and the hooks' index. Called after
 * every change to it (a sleep, a veto, a review, a relation, a revocation).
 */
export function refreshViews(
  store: Store,
  now: string,
  hashedDims = 256,
): { lessons: number; primeIndex: number } {
  return { lessons: writeLessonsFile(store, now), primeIndex: writePrimeIndex(store, now, hashedDims) };
}
