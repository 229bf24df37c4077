export {
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditRow,
  appendAudit,
  auditOfLesson,
} from './audit.ts';
export {
  countEpisodesByKind,
  type EpisodeFilter,
  type EpisodeOrigin,
  episodeFromRow,
  insertEpisodeOnce,
  listEpisodes,
  replaceSessionEpisodes,
  type UpsertResult,
} from './episodes.ts';
export {
  finishIngestRun,
  type IngestRun,
  lastIngestRun,
  recordIngestWarning,
  startIngestRun,
} from './ingest-runs.ts';
export {
  assignEpisode,
  findLessonsByHash,
  getLesson,
  insertLesson,
  listLessons,
  type NewLesson,
  saveLesson,
  sourceIdsOf,
} from './lessons.ts';
export { type DelegationTally, delegationTally, replaceSessionOffers } from './offers.ts';
export { type Db, type OpenOptions, openStore, SCHEMA_VERSION, STORE_FILE, type Store } from './open.ts';
export {
  insertPrediction,
  listPredictions,
  movePredictions,
  resolvePrediction,
} from './predictions.ts';
export {
  clearStaleSession,
  getRawFile,
  listRawFiles,
  listRawFilesOfSession,
  markSessionStale,
  type RawFile,
  rawFileTotals,
  saveRawFile,
  staleSessions,
} from './raw-files.ts';
export { lastSleep, recordSleep } from './sleeps.ts';
export { addTombstone, getTombstone, type Tombstone, tombstoneHashes } from './tombstones.ts';
export { deleteTurnsOfFile, insertTurns, type StoredTurn, turnsOfFile } from './turns.ts';
export {
  deleteVector,
  getVector,
  listVectors,
  putVector,
  type StoredVector,
  type VectorOwner,
} from './vectors.ts';
