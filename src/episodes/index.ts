export { type Derived, deriveEpisodes, episodeKey } from './derive.ts';
export {
  type CueHit,
  classifyAnswer,
  classifyFailure,
  classifyHandback,
  concedes,
  detectCorrection,
  detectSurprise,
  HANDBACK_CHARS,
  needsPerson,
  normalizeText,
  statesHouseRule,
} from './detect.ts';
export { eventToEpisode } from './events.ts';
export { ingestFromRaw } from './from-raw.ts';
export { type IngestOptions, type IngestReport, ingest, listSources } from './ingest.ts';
export { correctionProject, findProjectCue, projectCues, type ScopedSource } from './personal.ts';
export { projectOf } from './project.ts';
export type { IngestWarning, Source } from './source.ts';
