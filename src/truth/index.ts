export { findLesson, forget } from './forget.ts';
export { recordInjection } from './injections.ts';
export { writeLessonsFile } from './lessons-file.ts';
export { type PrimeIndex, type PrimeIndexItem, readPrimeIndex, writePrimeIndex } from './prime-index.ts';
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
