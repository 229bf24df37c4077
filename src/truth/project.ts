import type { Db } from '../store/index.ts';
import { loadKnown } from './facts.ts';
import { type LessonFacts, type Outcome, resolveTruth } from './resolve.ts';
import type { HeldReason, ReadScope, TruthRow } from './types.ts';

function heldBecause(entry: LessonFacts, outcome: Outcome, inQuestion: boolean): HeldReason | null {
  const { lesson } = entry;
  if (lesson.vetoedAt !== null) return 'vetoed';
  if (lesson.mergedInto !== null) return 'merged';
  if (lesson.review === 'rejected') return 'rejected';
  if (lesson.review === 'pending_review') return 'pending_review';
  if (outcome.validity === 'contradicted') return inQuestion ? null : 'contradicted';
  if (outcome.validity !== 'current') return outcome.validity;
  if (lesson.archived) return 'archived';
  return null;
}

/**
 * Every lesson with its truth, for the owner (`remem lessons --json`, the web view): validity, retention,
 * review state, scope, the subject and the reason its answer is what it is. `asOf` reads the store as Remem
 * knew it then; `scope` narrows to what one project's sessions could be shown (all projects by default).
 */
export function projectTruth(db: Db, options: { now: string; asOf?: string; scope?: ReadScope }): TruthRow[] {
  const { facts, relations } = loadKnown(db, {
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
    ...(options.scope === undefined ? {} : { scope: options.scope }),
  });
  const { outcomes, questions } = resolveTruth(facts, relations);
  const byId = new Map(facts.map((entry) => [entry.lesson.id, entry]));
  const asked = new Set<number>();
  for (const pair of questions) {
    // A question reaches an agent unless both of its lessons have faded.
    if (pair.every((id) => byId.get(id)?.lesson.archived === true)) continue;
    for (const id of pair) asked.add(id);
  }
  return facts.map((entry) => {
    const outcome = outcomes.get(entry.lesson.id)!;
    const held = heldBecause(entry, outcome, asked.has(entry.lesson.id));
    return {
      lesson: entry.lesson,
      validity: outcome.validity,
      retention: entry.lesson.archived ? 'archived' : 'active',
      resolution: outcome.resolution,
      scope: entry.lesson.project === null ? 'personal' : 'project',
      subject: outcome.subject,
      conflictsWith: outcome.conflictsWith,
      supportedBy: outcome.supportedBy,
      supersededBy: outcome.supersededBy,
      confirmations: entry.confirmations,
      failures: entry.failures,
      predicting: entry.open,
      reach: held !== null ? 'held' : outcome.validity === 'contradicted' ? 'question' : 'lesson',
      heldBecause: held,
    };
  });
}
