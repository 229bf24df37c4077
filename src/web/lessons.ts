import type { Lesson, LessonKind } from '../core/index.ts';
import { type Db, provenanceOf } from '../store/index.ts';
import { projectTruth, questionText, type TruthRow } from '../truth/index.ts';

/** Where a lesson stands for its owner, one word: what `remem lessons --all` calls its state. */
export const lessonStates = ['active', 'archived', 'merged', 'vetoed', 'pending_review', 'rejected'] as const;
export type LessonState = (typeof lessonStates)[number];

export function stateOf(lesson: Lesson): LessonState {
  if (lesson.vetoedAt !== null) return 'vetoed';
  if (lesson.mergedInto !== null) return 'merged';
  if (lesson.review !== 'approved') return lesson.review;
  return lesson.archived ? 'archived' : 'active';
}

/** One lesson as the page lists it: what it says, how strong, whether it holds and why, where it came from. */
export interface LessonSummary {
  id: number;
  hash: string;
  kind: LessonKind;
  text: string;
  strength: number;
  seen: number;
  state: LessonState;
  validity: TruthRow['validity'];
  resolution: TruthRow['resolution'];
  review: Lesson['review'];
  retention: TruthRow['retention'];
  scope: TruthRow['scope'];
  project: string | null;
  origin: string;
  confirmedBy: string[];
  corroboratedBy: string[];
  reach: TruthRow['reach'];
  heldBecause: TruthRow['heldBecause'];
  conflictsWith: number[];
  supportedBy: number[];
  supersededBy: number | null;
  confirmations: number;
  failures: number;
  predicting: number;
  mergedInto: number | null;
  createdAt: string;
  updatedAt: string;
  vetoedAt: string | null;
}

export function summaryOf(db: Db, row: TruthRow): LessonSummary {
  const { lesson } = row;
  const provenance = provenanceOf(db, lesson.id);
  return {
    id: lesson.id,
    hash: lesson.hash,
    kind: lesson.kind,
    text: lesson.text,
    strength: lesson.strength,
    seen: lesson.seen,
    state: stateOf(lesson),
    validity: row.validity,
    resolution: row.resolution,
    review: lesson.review,
    retention: row.retention,
    scope: row.scope,
    project: lesson.project,
    origin: provenance.origin,
    confirmedBy: provenance.confirmedBy,
    corroboratedBy: provenance.corroboratedBy,
    reach: row.reach,
    heldBecause: row.heldBecause,
    conflictsWith: row.conflictsWith,
    supportedBy: row.supportedBy,
    supersededBy: row.supersededBy,
    confirmations: row.confirmations,
    failures: row.failures,
    predicting: row.predicting,
    mergedInto: lesson.mergedInto,
    createdAt: lesson.createdAt,
    updatedAt: lesson.updatedAt,
    vetoedAt: lesson.vetoedAt,
  };
}

/** Two lessons that refute each other with nothing to settle which holds: shown side by side, as a question. */
export interface OpenQuestion {
  text: string;
  lessons: [LessonSummary, LessonSummary];
}

export interface LessonFilter {
  kind?: LessonKind;
  /** A project's git root, or `personal` for lessons of the person's own scope. */
  project?: string;
  /** One state, or every lesson (`all`). */
  state?: LessonState | 'all';
}

export interface LessonList {
  lessons: LessonSummary[];
  questions: OpenQuestion[];
  /** What the filters can choose from, with how many lessons each. */
  facets: {
    kinds: Record<string, number>;
    projects: Record<string, number>;
    states: Record<string, number>;
  };
}

function count(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function projectKey(lesson: { project: string | null }): string {
  return lesson.project ?? 'personal';
}

/**
 * Every lesson through the truth projection (all projects: the owner's view), filtered, strongest first,
 * with the open questions among them.
 */
export function listLessonRows(db: Db, options: { now: string; filter?: LessonFilter }): LessonList {
  const filter = options.filter ?? {};
  const rows = projectTruth(db, { now: options.now });
  const all = rows.map((row) => summaryOf(db, row));
  const byId = new Map(all.map((lesson) => [lesson.id, lesson]));
  const truthOf = new Map(rows.map((row) => [row.lesson.id, row.lesson]));
  const inKindAndProject = (lesson: LessonSummary) =>
    (filter.kind === undefined || lesson.kind === filter.kind) &&
    (filter.project === undefined || projectKey(lesson) === filter.project);
  const wanted = filter.state ?? 'active';
  const lessons = all
    .filter((lesson) => inKindAndProject(lesson) && (wanted === 'all' || lesson.state === wanted))
    .sort((a, b) => b.strength - a.strength || a.id - b.id);
  const questions: OpenQuestion[] = [];
  for (const lesson of all) {
    if (lesson.reach !== 'question') continue;
    for (const otherId of lesson.conflictsWith) {
      const other = byId.get(otherId);
      if (other?.reach !== 'question' || other.id < lesson.id) continue;
      if (!inKindAndProject(lesson) && !inKindAndProject(other)) continue;
      const text = questionText(truthOf.get(lesson.id)!, truthOf.get(other.id)!);
      questions.push({ text, lessons: [lesson, other] });
    }
  }
  return {
    lessons,
    questions,
    facets: {
      kinds: count(all.map((lesson) => lesson.kind)),
      projects: count(all.map(projectKey)),
      states: count(all.map((lesson) => lesson.state)),
    },
  };
}
