import { DAY_MS, type Params } from '../core/index.ts';
import { relevance } from '../embed/index.ts';
import type { Db } from '../store/index.ts';
import type { RecallIndex, RecallItem } from './recall-index.ts';

export interface RecallHit {
  item: RecallItem;
  score: number;
  /** Every component, so a ranking can be argued with. */
  components: { cosine: number; relevance: number; recency: number; strength: number };
}

/** Strength as a share of 1 that saturates: 1 → 0.5, 2 → 0.75, 3 → 0.875. */
export function strengthShare(strength: number): number {
  return strength <= 0 ? 0 : 1 - 0.5 ** strength;
}

/** Strength now: the stored value halved every half-life since it was last decayed or touched. */
export function currentStrength(
  item: { strength: number; since: string },
  now: number,
  params: Params,
): number {
  const days = (now - new Date(item.since).getTime()) / DAY_MS;
  return days <= 0 ? item.strength : item.strength * 0.5 ** (days / params.decay.halfLifeDays);
}

/**
 * score = 0.60 relevance + 0.25 recency (30-day half-life) + 0.15 strength, over lessons and episodes.
 * Only items that are relevant at all (above the space's floor) are ranked.
 */
export function rankRecall(
  index: RecallIndex,
  query: Float32Array,
  options: { k: number; now: string; params: Params },
): RecallHit[] {
  const { dims, matrix, items } = index;
  const weights = options.params.recall;
  const now = new Date(options.now).getTime();
  const hits: RecallHit[] = [];
  if (query.length !== dims) return hits;
  for (let row = 0; row < items.length; row++) {
    let cos = 0;
    const base = row * dims;
    for (let i = 0; i < dims; i++) cos += matrix[base + i]! * query[i]!;
    const rel = relevance(cos, index.space.floor);
    if (rel <= 0) continue;
    const item = items[row]!;
    const ageDays = Math.max(0, (now - new Date(item.at).getTime()) / DAY_MS);
    const recency = 0.5 ** (ageDays / weights.recencyHalfLifeDays);
    const strength = strengthShare(currentStrength(item, now, options.params));
    const score = weights.relevance * rel + weights.recency * recency + weights.strength * strength;
    hits.push({ item, score, components: { cosine: cos, relevance: rel, recency, strength } });
  }
  hits.sort((a, b) => b.score - a.score);
  return hits.slice(0, options.k);
}

/** Each recall touches what it returns: use keeps a memory alive (+0.1, and its decay starts again). */
export function touch(db: Db, hits: readonly RecallHit[], now: string, params: Params): void {
  const at = new Date(now).getTime();
  const lesson = db.prepare('UPDATE lessons SET strength = ?, decayed_at = ?, touched_at = ? WHERE id = ?');
  const episode = db.prepare('UPDATE episodes SET strength = ?, touched_at = ? WHERE id = ?');
  db.transaction(() => {
    for (const { item } of hits) {
      const strength = currentStrength(item, at, params) + params.recall.touch;
      if (item.type === 'lesson') lesson.run(strength, now, now, item.id);
      else if (item.type === 'episode') episode.run(strength, now, item.id);
    }
  })();
}
