import { composeLayers, type Lesson, type LessonLine } from '../core/index.ts';
import { type Db, listLayerLessons, type StoredLayerLesson } from '../store/index.ts';
import { loadReachable } from './facts.ts';
import { resolveTruth } from './resolve.ts';
import type { LayerRef, ReadScope, Visible } from './types.ts';

/** Two lessons that refute each other, put to the agent as an open question rather than as either side. */
export function questionText(a: Lesson, b: Lesson): string {
  return (
    'Two lessons from earlier sessions disagree, and neither has more evidence: ' +
    `(1) ${a.text} (2) ${b.text} Which of them holds here is an open question.`
  );
}

/**
 * A layer lesson in the shape every reader takes. It has no row among this memory's lessons: its id is
 * negative (nothing is stored, touched or decayed under it), it reaches every project, and its strength is
 * what its layer states.
 */
function layerLesson(row: StoredLayerLesson, now: string): Lesson {
  return {
    id: -row.row,
    hash: row.hash,
    kind: row.kind,
    text: row.text,
    seen: row.seen,
    strength: row.strength,
    project: null,
    origin: row.origin ?? 'layer',
    review: 'approved',
    happenedAt: row.updated,
    createdAt: row.updated,
    updatedAt: row.updated,
    touchedAt: now,
    decayedAt: now,
    archived: false,
    mergedInto: null,
    vetoedAt: null,
  };
}

type Instance = LessonLine & { entry: Extract<Visible, { type: 'lesson' }> };

function instanceOf(entry: Instance['entry'], source: string): Instance {
  const { lesson } = entry;
  return {
    hash: lesson.hash,
    kind: lesson.kind,
    text: lesson.text,
    seen: lesson.seen,
    strength: lesson.strength,
    updated: lesson.updatedAt,
    layer: entry.layer?.level ?? 'personal',
    source,
    entry,
  };
}

/**
 * What an agent may be shown: this memory's own lessons that are current, approved, not vetoed, merged or
 * archived, in its scope, composed with the layers it runs with (protocol §6) — the union, one instance per
 * hash, the strongest, a lower layer's standing on a tie. A layer lesson whose hash this memory holds and
 * judges not to hold (superseded, contradicted, stale, expired) is held back with it; a tombstoned or revoked
 * one never comes. Each pair of surviving lessons that refute each other is one question, never a lesson.
 * Lessons come strongest first, then the questions. Plain indexed reads, no vectors and no episodes beyond
 * one lookup per lesson whose last prediction failed: it runs in hooks with a 1.5 s budget. The state read
 * is the store's current one; `now` is when the read happens.
 */
export function visibleToAgent(db: Db, options: { now: string; scope: ReadScope }): Visible[] {
  const { facts, relations } = loadReachable(db, options.scope);
  const { outcomes, questions } = resolveTruth(facts, relations);
  const byId = new Map(facts.map((entry) => [entry.lesson.id, entry.lesson]));
  const own = facts
    .map((entry) => entry.lesson)
    .filter((lesson) => outcomes.get(lesson.id)?.validity === 'current' && outcomes.get(lesson.id)?.accepted)
    .filter((lesson) => !lesson.archived)
    .sort((a, b) => b.strength - a.strength || a.id - b.id);
  const judged = new Set(
    facts
      .filter((entry) => {
        const outcome = outcomes.get(entry.lesson.id);
        return outcome?.accepted && outcome.validity !== 'current';
      })
      .map((entry) => entry.lesson.hash),
  );
  const layers = new Map<string, Instance[]>();
  for (const row of listLayerLessons(db)) {
    // A layer's lesson reaches an agent only once the person approved it (`remem layer approve`).
    if (!row.approved || judged.has(row.hash)) continue;
    const entry: Instance['entry'] = {
      type: 'lesson',
      lesson: layerLesson(row, options.now),
      layer: { level: row.level, source: row.path },
    };
    const list = layers.get(row.path) ?? [];
    list.push(instanceOf(entry, row.path));
    layers.set(row.path, list);
  }
  // This memory's own lessons of one hash (the same sentence learned in two projects) are truth's to show; the
  // strongest of them stands for the personal layer against the others.
  const strongestOwn = new Map<string, Lesson>();
  for (const lesson of own) {
    const held = strongestOwn.get(lesson.hash);
    if (held === undefined || lesson.strength > held.strength) strongestOwn.set(lesson.hash, lesson);
  }
  const composed = composeLayers([
    ...[...layers.values()].map((lessons) => ({ level: lessons[0]!.layer, lessons })),
    {
      level: 'personal',
      lessons: [...strongestOwn.values()].map((lesson) => instanceOf({ type: 'lesson', lesson }, 'memory')),
    },
  ]);
  const fromLayers = composed.filter((instance) => instance.entry.layer !== undefined);
  const outranked = new Set(fromLayers.map((instance) => instance.hash));
  const lessons = [
    ...fromLayers.map((instance) => instance.entry),
    ...own
      .filter((lesson) => !outranked.has(lesson.hash))
      .map((lesson) => ({ type: 'lesson' as const, lesson })),
  ];
  // Stable: on equal strength a layer's lesson comes first (common, then domain), then this memory's own.
  lessons.sort((a, b) => b.lesson.strength - a.lesson.strength);
  const asked: Visible[] = [];
  for (const [first, second] of questions) {
    const a = byId.get(first)!;
    const b = byId.get(second)!;
    if (a.archived && b.archived) continue;
    asked.push({ type: 'question', lessons: [a, b], text: questionText(a, b) });
  }
  return [...lessons, ...asked];
}

/** A layer lesson as the owner reads it: whether agents see this instance, and if not, why. */
export interface LayerLessonRow {
  lesson: Lesson;
  layer: LayerRef;
  shown: boolean;
  /** `stronger_instance`: the same hash is shown from another instance; `judged_here`: this memory holds it and it does not hold. */
  heldBecause: 'stronger_instance' | 'judged_here' | 'pending_review' | null;
}

/**
 * The owner's view of the layers, beside `visibleToAgent` in the same scope: every layer lesson still in force
 * (not tombstoned, not revoked), and by hash the layer whose instance agents see instead of this memory's own.
 */
export function layerLessonRows(
  db: Db,
  options: { now: string; scope: ReadScope },
): { rows: LayerLessonRow[]; shownFrom: Map<string, LayerRef> } {
  const visible = visibleToAgent(db, options);
  const shownIds = new Set<number>();
  const shownHashes = new Set<string>();
  const shownFrom = new Map<string, LayerRef>();
  for (const item of visible) {
    if (item.type !== 'lesson') continue;
    shownIds.add(item.lesson.id);
    shownHashes.add(item.lesson.hash);
    if (item.layer) shownFrom.set(item.lesson.hash, item.layer);
  }
  const rows = listLayerLessons(db).map((row): LayerLessonRow => {
    const lesson = layerLesson(row, options.now);
    const shown = shownIds.has(lesson.id);
    return {
      lesson,
      layer: { level: row.level, source: row.path },
      shown,
      heldBecause: shown
        ? null
        : !row.approved
          ? 'pending_review'
          : shownHashes.has(row.hash)
            ? 'stronger_instance'
            : 'judged_here',
    };
  });
  return { rows, shownFrom };
}
