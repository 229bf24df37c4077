import type { Lesson, Params } from '../core/index.ts';
import { checkObservation, lessonHash, RememError } from '../core/index.ts';
import {
  addTombstone,
  appendAudit,
  auditOfLesson,
  type Db,
  getTombstone,
  listPendingLessons,
  type Store,
  saveLesson,
} from '../store/index.ts';
import { findLesson } from './forget.ts';
import { projectTruth } from './project.ts';
import type { TruthRow } from './types.ts';

export const REVIEW_RULES = 'review-1';

export type ReviewAction = 'approve' | 'reject' | 'edit';
export const reviewActions: readonly ReviewAction[] = ['approve', 'reject', 'edit'];

/** A lesson waiting for review, with what this memory has seen of it since it arrived. */
export interface QueuedLesson {
  lesson: Lesson;
  origin: string;
  confirmations: number;
  failures: number;
  predicting: number;
  validity: TruthRow['validity'];
  conflictsWith: number[];
  /** Why a lesson of this memory's own waits (a remembered event screened as a possible injection). */
  heldFor?: string;
}

const HELD = 'held for review: ';

/** The reason sleep gave for holding one of this memory's own lessons for review, as `heldFor`. */
function heldForOf(db: Db, lessonId: number): { heldFor?: string } {
  const reason = auditOfLesson(db, lessonId).find((row) => row.action === 'add')?.reason ?? '';
  const at = reason.indexOf(HELD);
  return at === -1 ? {} : { heldFor: reason.slice(at + HELD.length) };
}

/**
 * The review queue: lessons from outside this memory, held back from every agent until a person approves
 * them. They predict meanwhile, so each comes with its confirmations and failures here.
 */
export function listReviewQueue(db: Db, options: { now: string }): QueuedLesson[] {
  const pending = new Set(listPendingLessons(db).map((lesson) => lesson.id));
  if (pending.size === 0) return [];
  return projectTruth(db, { now: options.now })
    .filter((row) => pending.has(row.lesson.id))
    .map((row) => ({
      lesson: row.lesson,
      origin: row.lesson.origin,
      confirmations: row.confirmations,
      failures: row.failures,
      predicting: row.predicting,
      validity: row.validity,
      conflictsWith: row.conflictsWith,
      ...(row.lesson.origin === 'self' ? heldForOf(db, row.lesson.id) : {}),
    }));
}

export const NEEDS_TERMINAL =
  'approving, rejecting or editing a lesson needs a person at an interactive terminal; standard input is not one, so nothing was changed';

/**
 * A person's review decision. Only at an interactive terminal: `terminal` is the CLI's `stdinIsTTY`, and no
 * MCP tool, REST route or hook calls this. Approve: the lesson may reach agents. Reject: it never will, and
 * its hash becomes a tombstone, so the same text arriving again is refused. Edit: the person's wording
 * replaces the received one (checked as an observation, and against tombstones) and is approved.
 */
export function decideReview(
  store: Store,
  input: { action: ReviewAction; ref: string; now: string; terminal: boolean; text?: string; params: Params },
): Lesson {
  if (!input.terminal) throw new RememError('needs_terminal', NEEDS_TERMINAL);
  if (!reviewActions.includes(input.action)) {
    throw new RememError(
      'bad_action',
      `a review action is one of ${reviewActions.join(', ')}: ${input.action}`,
    );
  }
  const { db } = store;
  const lesson = findLesson(store, input.ref);
  if (lesson.vetoedAt !== null) throw new RememError('vetoed', `lesson ${lesson.id} is vetoed`);
  if (lesson.mergedInto !== null) {
    throw new RememError('merged', `lesson ${lesson.id} was merged into lesson ${lesson.mergedInto}`);
  }
  if (lesson.review !== 'pending_review') {
    throw new RememError(
      'not_pending',
      `lesson ${lesson.id} is not waiting for review (it is ${lesson.review})`,
    );
  }
  return db.transaction(() => {
    const audit = (action: 'approve' | 'reject', reason: string) =>
      appendAudit(db, {
        at: input.now,
        actor: 'person',
        action,
        rules: REVIEW_RULES,
        lessonId: lesson.id,
        hash: lesson.hash,
        reason,
      });
    if (input.action === 'reject') {
      lesson.review = 'rejected';
      lesson.updatedAt = input.now;
      saveLesson(db, lesson);
      addTombstone(db, lesson.hash, 'rejected in review', lesson.id, input.now);
      audit('reject', `rejected in review; received from ${lesson.origin}`);
      return lesson;
    }
    if (input.action === 'edit') {
      const text = input.text?.trim() ?? '';
      if (text === '') throw new RememError('no_text', 'an edit needs the new wording (--text)');
      const problem = checkObservation(text, input.params.sharing.maxChars);
      if (problem) throw new RememError('not_observation', `the new wording cannot be a lesson: ${problem}`);
      const hash = lessonHash(lesson.kind, text);
      const tombstone = getTombstone(db, hash);
      if (tombstone)
        throw new RememError('tombstoned', `that wording was refused before: ${tombstone.reason}`);
      const was = lesson.hash;
      lesson.text = text;
      lesson.hash = hash;
      lesson.review = 'approved';
      lesson.updatedAt = input.now;
      saveLesson(db, lesson);
      audit('approve', `edited, then approved; was ${was}, received from ${lesson.origin}`);
      return lesson;
    }
    lesson.review = 'approved';
    lesson.updatedAt = input.now;
    saveLesson(db, lesson);
    audit('approve', `approved in review; received from ${lesson.origin}`);
    return lesson;
  })();
}

/**
 * The one review decision made without a person, and only when `params.truth.autoApproveCommon` is on
 * (it is off by default): a pending lesson the commons holds as common is approved. `isCommon` answers
 * from the commons-wide state the caller holds. Returns what it approved.
 */
export function applyReviewPolicy(
  db: Db,
  options: { now: string; params: Params; isCommon: (hash: string) => boolean },
): Lesson[] {
  if (!options.params.truth.autoApproveCommon) return [];
  const approved: Lesson[] = [];
  db.transaction(() => {
    for (const lesson of listPendingLessons(db)) {
      if (!options.isCommon(lesson.hash)) continue;
      lesson.review = 'approved';
      lesson.updatedAt = options.now;
      saveLesson(db, lesson);
      appendAudit(db, {
        at: options.now,
        actor: 'receive',
        action: 'approve',
        rules: REVIEW_RULES,
        lessonId: lesson.id,
        hash: lesson.hash,
        reason: 'held as common by the commons; approved by the autoApproveCommon policy',
      });
      approved.push(lesson);
    }
  })();
  return approved;
}
