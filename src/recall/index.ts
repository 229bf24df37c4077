export { type RecallHit, rankRecall, touch } from './recall.ts';
export {
  type IndexScope,
  lessonItem,
  loadRecallIndex,
  type RecallIndex,
  type RecallItem,
  vectorsIn,
} from './recall-index.ts';
export { type RecallAnswer, recall, spaceOfStore } from './run.ts';
export { currentStrength, strengthShare } from './strength.ts';
