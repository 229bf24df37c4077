export { currentStrength, type RecallHit, rankRecall, strengthShare, touch } from './recall.ts';
export { type IndexScope, loadRecallIndex, type RecallIndex, type RecallItem } from './recall-index.ts';
export { type RecallAnswer, recall, spaceOfStore } from './run.ts';
