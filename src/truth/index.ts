export { findLesson, forget } from './forget.ts';
export { recordInjection } from './injections.ts';
export { writeLessonsFile } from './lessons-file.ts';
export { writePrimeIndex } from './prime-index.ts';
export { openPrimeIndex, type PrimeIndex, type PrimeRows } from './prime-index-file.ts';
export { projectTruth } from './project.ts';
export { type PersonRelation, personRelations, relateLessons } from './relate.ts';
export { evidenceValidity, isAccepted, type LessonFacts, resolveTruth } from './resolve.ts';
export {
  applyReviewPolicy,
  decideReview,
  listReviewQueue,
  NEEDS_TERMINAL,
  type QueuedLesson,
  type ReviewAction,
  reviewActions,
} from './review.ts';
export type {
  HeldReason,
  ReadScope,
  Resolution,
  Retention,
  TruthRow,
  Validity,
  Visible,
} from './types.ts';
export { refreshViews } from './views.ts';
export { questionText, visibleToAgent } from './visible.ts';
