import { DAY_MS, decayed, type Params } from '../core/index.ts';
import { relevance } from '../embed/index.ts';
import { type Db, touchStrengths } from '../store/index.ts';
import type { RecallIndex, RecallItem } from './recall-index.ts';
import { currentStrength, strengthShare } from './strength.ts';

export interface RecallHit {
  item: RecallItem;
  score: number;
  /** Every component, so a ranking can be argued with. */
  components: { cosine: number; relevance: number; recency: number; strength: number };
}

/** The cosine of every item with the query: by the postings when the vectors are sparse, else a full pass. */
function cosines(index: RecallIndex, query: Float32Array): { values: Float32Array; rows: Iterable<number> } {
  const { dims, matrix, items, postings } = index;
  const values = new Float32Array(items.length);
  if (postings) {
    const touched: number[] = [];
    const seen = new Uint8Array(items.length);
    for (let d = 0; d < dims; d++) {
      const q = query[d]!;
      if (q === 0) continue;
      for (let at = postings.offsets[d]!; at < postings.offsets[d + 1]!; at++) {
        const row = postings.rows[at]!;
        values[row] = values[row]! + postings.values[at]! * q;
        if (seen[row] === 0) {
          seen[row] = 1;
          touched.push(row);
        }
      }
    }
    return { values, rows: touched };
  }
  for (let row = 0; row < items.length; row++) {
    let sum = 0;
    const base = row * dims;
    for (let i = 0; i < dims; i++) sum += matrix[base + i]! * query[i]!;
    values[row] = sum;
  }
  return { values, rows: items.keys() };
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
  const { items } = index;
  const weights = options.params.recall;
  const halfLife = options.params.decay.halfLifeDays;
  const now = new Date(options.now).getTime();
  const best: RecallHit[] = [];
  if (query.length !== index.dims || options.k <= 0) return best;
  const { values, rows } = cosines(index, query);
  // Recency is at most 1 and strength only decays: an item whose relevance cannot lift it past the k-th best
  // is passed over before its recency and strength are worked out.
  for (const row of rows) {
    const cos = values[row]!;
    const rel = relevance(cos, index.space.floor);
    if (rel <= 0) continue;
    if (best.length === options.k) {
      const cap = index.strengthCap?.[row] ?? 1;
      if (weights.relevance * rel + weights.recency + weights.strength * cap <= best[best.length - 1]!.score)
        continue;
    }
    const item = items[row]!;
    const at = index.atMs?.[row] ?? Date.parse(item.at);
    const since = index.sinceMs?.[row] ?? Date.parse(item.since);
    const recency = 0.5 ** (Math.max(0, (now - at) / DAY_MS) / weights.recencyHalfLifeDays);
    const idle = (now - since) / DAY_MS;
    const strength = strengthShare(decayed(item.strength, idle, halfLife));
    const score = weights.relevance * rel + weights.recency * recency + weights.strength * strength;
    if (best.length === options.k && score <= best[best.length - 1]!.score) continue;
    const hit = { item, score, components: { cosine: cos, relevance: rel, recency, strength } };
    let place = best.length;
    while (place > 0 && best[place - 1]!.score < score) place--;
    best.splice(place, 0, hit);
    if (best.length > options.k) best.pop();
  }
  return best;
}

/** Each recall touches what it returns: use keeps a memory alive (+0.1, and its decay starts again). */
export function touch(db: Db, hits: readonly RecallHit[], now: string, params: Params): void {
  const at = new Date(now).getTime();
  const touched = (item: RecallItem) => ({
    id: item.id,
    strength: currentStrength(item, at, params) + params.recall.touch,
  });
  touchStrengths(db, now, {
    // A layer's lesson (id below 1) has no row here to touch: its strength is its layer's.
    lessons: hits
      .filter(({ item }) => item.type === 'lesson' && item.id > 0)
      .map(({ item }) => touched(item)),
    episodes: hits.filter(({ item }) => item.type === 'episode').map(({ item }) => touched(item)),
  });
}
