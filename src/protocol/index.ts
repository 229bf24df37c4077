/**
 * The lesson hash and the composition rule live in core (sleep and truth need them and may not import the
 * protocol); they are part of this front door too.
 */
export {
  composeLayers,
  isLessonHash,
  type Layer,
  type LayerLevel,
  type LessonHash,
  type LessonLine,
  lessonHash,
  lowerLikePython,
  normText,
} from '../core/index.ts';
export { canonicalJson, compareCodePoints, type JsonValue, pythonFloat } from './canonical.ts';
export {
  generateIdentity,
  type Identity,
  identityFromPrivateKey,
  loadOrCreateIdentity,
  type Origin,
  originOf,
  publicKeyPem,
  verifySignature,
} from './keys.ts';
export {
  checkRecordLines,
  defaultFileLimits,
  type FileLimits,
  type FileProblem,
  type IndexEntry,
  indexEntrySchema,
  isNewer,
  isOrigin,
  keyOfNow,
  type LineParser,
  type LineProblem,
  type LineRefusal,
  latestAllowed,
  type ReadFileOptions,
  type RecordFile,
  readRecordFile,
  timeKey,
} from './record-file.ts';
export {
  type ConfirmFields,
  type ConfirmRecord,
  findLessonProblem,
  type LessonFields,
  type LessonRecord,
  type RecordFields,
  type RecordKind,
  type RevokeFields,
  type RevokeRecord,
  type SignedRecord,
  type SignOptions,
  signRecord,
  wireVersion,
} from './records.ts';
export {
  type CommonsState,
  computeStates,
  type LessonState,
  type StateOptions,
  storedRecord,
} from './states.ts';
export { scanJson } from './strict-json.ts';
export {
  cutSignature,
  maxLineBytes,
  type ParsedRecord,
  type ParseOptions,
  parseRecordLine,
  type Refusal,
  type RefusalCode,
} from './verify.ts';
