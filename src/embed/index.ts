export { fnv1a, hashedVector, hashFeature, tokenize } from './hashed.ts';
export { type IndexHit, LinkageIndex } from './linkage-index.ts';
export { createSpace, hashedSpace } from './space.ts';
export {
  callSubjects,
  isCommand,
  lessonSubjects,
  type Subjects,
  sharedCommands,
  subjectsMeet,
  subjectsOf,
} from './subjects.ts';
export type { Space, SpaceKind } from './types.ts';
export {
  cosine,
  dot,
  fromBlob,
  normalize,
  relevance,
  type SparseVector,
  sparseOf,
  toBlob,
  VectorSum,
  type VectorSumState,
} from './vector.ts';
