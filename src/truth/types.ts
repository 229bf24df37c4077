import type { Lesson } from '../core/index.ts';

/**
 * Whether a lesson holds, as far as Remem can tell — a discrete state, never a score.
 * - `current`: nothing newer replaces it, nothing surviving contradicts it, and its evidence stands: it was
 *   learned here (its sources are the evidence), or a person approved it, or a prediction of it came true.
 * - `superseded`: a newer lesson replaces it — an explicit `supersedes` relation, the theme it was merged
 *   into, or the winner of its subject on the resolution ladder.
 * - `contradicted`: it and a surviving lesson refute each other and nothing settles which holds.
 * - `stale`: its last prediction failed, and since then no prediction came true and it was not seen again; never a
 *   correction learned here (a session without the correction may be one that followed it).
 * - `expired`: received from another memory, its prediction's window passed unconfirmed, and none was ever
 *   confirmed here: a candidate that did not earn its place.
 * - `unknown`: received from another memory, never tested here (no prediction resolved) and not approved.
 */
export type Validity = 'current' | 'superseded' | 'contradicted' | 'stale' | 'expired' | 'unknown';

/** Whether a lesson competes for attention. Archived is not false: it faded unused, and its validity stays. */
export type Retention = 'active' | 'archived';

/**
 * Why the answer for a subject is what it is, tried in this order: one lesson of the subject holds; an
 * explicit `supersedes` leaves one; the one with more confirmed predictions; the most recently seen; and
 * when lessons that hold refute each other, no answer at all.
 */
export type Resolution =
  | 'only_surviving'
  | 'explicit_supersedes'
  | 'verified_evidence'
  | 'most_recent'
  | 'unresolved_conflict';

/** Who is reading: a project (git root), or null outside any project — then only personal lessons. */
export interface ReadScope {
  project: string | null;
  /** Every project's lessons: the owner's own view, never an agent's. */
  allProjects?: boolean;
}

/** Why an agent is not shown a lesson, first reason first. */
export type HeldReason =
  | 'vetoed'
  | 'merged'
  | 'rejected'
  | 'pending_review'
  | 'superseded'
  | 'contradicted'
  | 'stale'
  | 'expired'
  | 'unknown'
  | 'archived';

export interface TruthRow {
  /** The lesson as Remem knew it at the read's time (review, retention, veto and merge as of then). */
  lesson: Lesson;
  validity: Validity;
  retention: Retention;
  /** The reason its subject's answer is what it is; null when no lesson of the subject holds. */
  resolution: Resolution | null;
  scope: 'personal' | 'project';
  /** The subject: the hash of the first lesson of the group joined by supersedes, refutes or derived_from. */
  subject: string;
  /** Lessons it refutes or is refuted by. */
  conflictsWith: number[];
  /** Lessons that agree with it (`supports`, either way). */
  supportedBy: number[];
  supersededBy: number | null;
  confirmations: number;
  failures: number;
  /** Predictions still open. */
  predicting: number;
  /** How it reaches an agent in its own scope: as a lesson, inside a question, or not at all. */
  reach: 'lesson' | 'question' | 'held';
  heldBecause: HeldReason | null;
}

/** The layer a lesson an agent is shown came from, when it is not this memory's own (protocol §6). */
export interface LayerRef {
  level: 'common' | 'domain';
  /** The lessons file, as `remem layer add` listed it. */
  source: string;
}

/**
 * What an agent may be shown: a lesson (this memory's own, or a layer's, then `layer` says which), or two
 * lessons that refute each other put as a question.
 */
export type Visible =
  | { type: 'lesson'; lesson: Lesson; layer?: LayerRef }
  | { type: 'question'; lessons: [Lesson, Lesson]; text: string };
