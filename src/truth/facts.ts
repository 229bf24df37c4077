import type { Lesson } from '../core/index.ts';
import {
  currentPredictionTallies,
  type Db,
  type LessonEvent,
  lastSeenOf,
  listLessonEvents,
  listLessonsById,
  listLessonsKnownAt,
  listReachableLessons,
  listRelations,
  predictionTallies,
  type Relation,
} from '../store/index.ts';
import type { LessonFacts } from './resolve.ts';
import type { ReadScope } from './types.ts';

/** Later than any time Remem writes: "as of" with no bound. */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

export function inScope(project: string | null, scope: ReadScope | undefined): boolean {
  return scope === undefined || scope.allProjects === true || project === null || project === scope.project;
}

function factsOf(db: Db, lessons: readonly Lesson[], at: string): LessonFacts[] {
  const tallies = at === END_OF_TIME ? currentPredictionTallies(db) : predictionTallies(db, at);
  // Only a failure asks whether the lesson was seen again since; no other read needs its episodes.
  const failed = lessons.filter((lesson) => tallies.get(lesson.id)?.lastFailedAt);
  const seen = lastSeenOf(
    db,
    failed.map((lesson) => lesson.id),
    at,
  );
  return lessons.map((lesson) => {
    const tally = tallies.get(lesson.id);
    const lastFailedAt = tally?.lastFailedAt ?? null;
    return {
      lesson,
      confirmations: tally?.confirmed ?? 0,
      failures: tally?.failed ?? 0,
      open: tally?.open ?? 0,
      lastConfirmedAt: tally?.lastConfirmedAt ?? null,
      lastFailedAt,
      lastSeenAt: seen.get(lesson.id) ?? null,
    };
  });
}

/**
 * The agent's read: lessons that may reach it in its scope, plus the lessons their relations name (a subject
 * is decided over all of them), with the store's current state — a veto holds whatever the clock says.
 */
export function loadReachable(db: Db, scope: ReadScope): { facts: LessonFacts[]; relations: Relation[] } {
  const lessons = listReachableLessons(db, scope.allProjects === true ? undefined : scope.project);
  const relations = listRelations(db);
  const loaded = new Set(lessons.map((lesson) => lesson.id));
  const named = new Set<number>();
  for (const relation of relations) {
    for (const id of [relation.fromId, relation.toId]) if (!loaded.has(id)) named.add(id);
  }
  const related = listLessonsById(db, [...named]).filter((lesson) => inScope(lesson.project, scope));
  return { facts: factsOf(db, [...lessons, ...related], END_OF_TIME), relations };
}

/** Review state and retention at `at`, replayed from the audit log; the current state when it says nothing. */
function asOf(
  lesson: Lesson,
  events: readonly LessonEvent[],
  merges: Map<number, string>,
  at: string,
): Lesson {
  const review = events.filter((event) => event.action === 'approve' || event.action === 'reject');
  const reviewedBy = review.filter((event) => event.at <= at).pop();
  const retention = events.filter((event) => event.action === 'archive' || event.action === 'join');
  const retainedBy = retention.filter((event) => event.at <= at).pop();
  const mergedAt = merges.get(lesson.id) ?? lesson.updatedAt;
  return {
    ...lesson,
    review: reviewedBy
      ? reviewedBy.action === 'approve'
        ? 'approved'
        : 'rejected'
      : review.length > 0
        ? 'pending_review'
        : lesson.review,
    archived: retention.length > 0 ? retainedBy?.action === 'archive' : lesson.archived,
    vetoedAt: lesson.vetoedAt !== null && lesson.vetoedAt <= at ? lesson.vetoedAt : null,
    mergedInto: lesson.mergedInto !== null && mergedAt <= at ? lesson.mergedInto : null,
  };
}

/**
 * The owner's read: every lesson in scope, as Remem knew it at `asOf` (now when absent): lessons learned
 * by then, relations recorded by then, predictions resolved by then, review and retention replayed from the
 * audit log, vetoes and merges dated. The text is today's: a theme re-worded since shows its new words.
 */
export function loadKnown(
  db: Db,
  options: { asOf?: string; scope?: ReadScope },
): { facts: LessonFacts[]; relations: Relation[] } {
  const at = options.asOf;
  const relations = listRelations(db, at === undefined ? {} : { asOf: at });
  let lessons = listLessonsKnownAt(db, at).filter((lesson) => inScope(lesson.project, options.scope));
  if (at !== undefined) {
    const events = new Map<number, LessonEvent[]>();
    for (const event of listLessonEvents(db)) {
      const list = events.get(event.lessonId);
      if (list) list.push(event);
      else events.set(event.lessonId, [event]);
    }
    const merges = new Map<number, string>();
    for (const relation of listRelations(db, { kinds: ['derived_from'] }))
      merges.set(relation.toId, relation.recordedAt);
    lessons = lessons.map((lesson) => asOf(lesson, events.get(lesson.id) ?? [], merges, at));
  }
  return { facts: factsOf(db, lessons, at ?? END_OF_TIME), relations };
}
