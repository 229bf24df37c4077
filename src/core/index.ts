export { append } from './append.ts';
export {
  type ChatAnswer,
  type ChatApi,
  type ChatMessage,
  chat,
  type Endpoint,
  oneTry,
  type RetryNotice,
  type ToolCall,
  type ToolSpec,
  visibleReply,
} from './chat.ts';
export { type Clock, createClock, DAY_MS, daysBetween } from './clock.ts';
export {
  CLINE_EXTENSIONS,
  type Config,
  type EmbedConfig,
  type Flags,
  type JudgeConfig,
  resolveConfig,
  type SpaceName,
  type WordingConfig,
} from './config.ts';
export { decayed } from './decay.ts';
export { ERROR_EXITS, type ErrorCode, RememError, UsageError } from './errors.ts';
export {
  type GuardOptions,
  guard,
  hostOfHeader,
  JSON_TYPES,
  jsonDepth,
  LOOPBACK_NAMES,
  mediaType,
  type Refuse,
  requireToken,
} from './guard.ts';
export { findInjection, injectionRules } from './injection.ts';
export { composeLayers, type Layer, type LayerLevel, type LessonLine } from './layers.ts';
export { isLessonHash, type LessonHash, lessonHash, lowerLikePython, normText } from './lesson-hash.ts';
export {
  checkObservation,
  collapseWhitespace,
  findImperative,
  findObservationProblem,
  hasControlChars,
  hasLoneSurrogate,
  isImperative,
  type ObservationProblem,
  shortenAtWord,
} from './observation.ts';
export { consolidatedKinds, defaultParams, type Params } from './params.ts';
export { percentile } from './percentile.ts';
export { seeded } from './random.ts';
export { findSecret, maskSecrets } from './secrets.ts';
export { findInvisible, normalizeForJudging, stripInvisible } from './text-normal.ts';
export * from './types.ts';
