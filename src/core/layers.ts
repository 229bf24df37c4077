import type { LessonKind } from './types.ts';

/**
 * Composition (protocol §6): an agent runs with layers, common → domain (a language, a tool, a codebase) →
 * personal, each a set of lessons. It sees their union and, for a hash held in several, the strongest instance;
 * a higher layer never replaces a lower layer's instance that is as strong. The rule lives in core because
 * `truth/` applies it to everything an agent reads, and `protocol/` reads the layer files.
 */
export type LayerLevel = 'common' | 'domain' | 'personal';

const rank: Record<LayerLevel, number> = { common: 0, domain: 1, personal: 2 };

/** One line of a lessons file (protocol §1), with where it came from. */
export interface LessonLine {
  hash: string;
  kind: LessonKind;
  text: string;
  seen: number;
  strength: number;
  updated: string;
  layer: LayerLevel;
  /** The file it was read from, or 'memory' for the personal layer. */
  source: string;
  /** The memory that signed it, when it came as a signed record. */
  origin?: string;
}

export interface Layer {
  level: LayerLevel;
  source: string;
  lessons: readonly LessonLine[];
}

/**
 * The lessons an agent sees: the union of the layers, one per hash, the strongest instance of a duplicate;
 * on a tie the lowest layer's (and, within a level, the first listed) stands. In order of first appearance,
 * common layers first. Pure: the same layers give the same answer.
 */
export function composeLayers<T extends LessonLine>(
  layers: readonly { level: LayerLevel; lessons: readonly T[] }[],
): T[] {
  const ordered = layers
    .map((layer, index) => ({ layer, index }))
    .sort((a, b) => rank[a.layer.level] - rank[b.layer.level] || a.index - b.index);
  const chosen = new Map<string, T>();
  for (const { layer } of ordered) {
    for (const lesson of layer.lessons) {
      const held = chosen.get(lesson.hash);
      if (held === undefined || lesson.strength > held.strength) chosen.set(lesson.hash, lesson);
    }
  }
  return [...chosen.values()];
}
