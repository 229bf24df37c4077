import type { Lesson } from '../core/index.ts';
import type { Db } from '../store/index.ts';
import { loadReachable } from './facts.ts';
import { resolveTruth } from './resolve.ts';
import type { ReadScope, Visible } from './types.ts';

/** Two lessons that refute each other, put to the agent as an open question rather than as either side. */
export function questionText(a: Lesson, b: Lesson): string {
  return (
    'Two lessons from earlier sessions disagree, and neither has more evidence: ' +
    `(1) ${a.text} (2) ${b.text} Which of them holds here is an open question.`
  );
}

/**
 * What an agent may be shown: current, approved, not vetoed, merged or archived, in its scope; each pair of
 * surviving lessons that refute each other as one question, never as a lesson. Lessons come strongest
 * first, then the questions. Plain indexed reads, no vectors and no episodes beyond one lookup per lesson
 * whose last prediction failed: it runs in hooks with a 1.5 s budget. The state read is the store's
 * current one; `now` is when the read happens.
 */
export function visibleToAgent(db: Db, options: { now: string; scope: ReadScope }): Visible[] {
  const { facts, relations } = loadReachable(db, options.scope);
  const { outcomes, questions } = resolveTruth(facts, relations);
  const byId = new Map(facts.map((entry) => [entry.lesson.id, entry.lesson]));
  const lessons = facts
    .map((entry) => entry.lesson)
    .filter((lesson) => outcomes.get(lesson.id)?.validity === 'current' && outcomes.get(lesson.id)?.accepted)
    .filter((lesson) => !lesson.archived)
    .sort((a, b) => b.strength - a.strength || a.id - b.id);
  const asked: Visible[] = [];
  for (const [first, second] of questions) {
    const a = byId.get(first)!;
    const b = byId.get(second)!;
    if (a.archived && b.archived) continue;
    asked.push({ type: 'question', lessons: [a, b], text: questionText(a, b) });
  }
  return [...lessons.map((lesson): Visible => ({ type: 'lesson', lesson })), ...asked];
}
