/** The lesson hash lives in core (sleep needs it and may not import the protocol); it is part of this front door too. */
export { isLessonHash, type LessonHash, lessonHash, lowerLikePython, normText } from '../core/index.ts';
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
