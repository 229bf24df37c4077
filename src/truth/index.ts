export { openPrimeIndex, type PrimeIndex, type PrimeRows, primeIndexVectors } from '../hook/index.ts';
export { headline as lessonHeadline, statesRule } from '../sleep/index.ts';
export { atSessionStart, type Choice, everything, hashesOf, type Showing, showToAgent } from './door.ts';
export { findLesson, forget } from './forget.ts';
export { recordInjection } from './injections.ts';
export { writeLessonsFile } from './lessons-file.ts';
export { primeIndexSpace, writePrimeIndex } from './prime-index.ts';
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
export { ruleSubjects } from './rule-subjects.ts';
export { type StartBudget, type StartParams, sessionStart, startBudget } from './start-block.ts';
export type {
  HeldReason,
  LayerRef,
  ReadScope,
  Resolution,
  Retention,
  TruthRow,
  Validity,
  Visible,
} from './types.ts';
export { embedUnstored, refreshViews, refreshViewsEmbedding } from './views.ts';
export { type LayerLessonRow, layerLessonRows, questionText, visibleToAgent } from './visible.ts';
