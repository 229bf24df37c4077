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
export { createStoreHolder, type HolderAnswer } from './holder.ts';
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
  type LayerRefusal,
  type LoadedLayer,
  loadLayers,
  readLayerText,
  syncLayers,
} from './layers.ts';
export {
  type IncomingFile,
  RECEIVE_RULES,
  type ReceiveOptions,
  type ReceiveRefusal,
  type ReceiveReport,
  receive,
} from './receive.ts';
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
export { type Revocation, revoke } from './revoke.ts';
export {
  SHARE_RULES,
  type ShareOptions,
  type ShareRefusal,
  type ShareResult,
  share,
} from './share.ts';
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
