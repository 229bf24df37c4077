export {
  type CursorComposerRows,
  type OpencodeSessionRows,
  readCursorComposers,
  readCursorWorkspaceItem,
  readOpencodeSessions,
} from './agent-stores.ts';
export {
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditRow,
  appendAudit,
  auditOfLesson,
  hasAudit,
} from './audit.ts';
export {
  type Candidate,
  confirmedCandidates,
  countPendingCandidates,
  pendingCandidates,
  recordFailedTry,
  recordVerdict,
  replaceSessionCandidates,
} from './candidates.ts';
export {
  archiveEpisodes,
  countEpisodesByKind,
  type EpisodeFilter,
  type EpisodeOrigin,
  episodeFromRow,
  episodeProjects,
  type FadingEpisode,
  fadingEpisodes,
  insertEpisodeOnce,
  latestHappenedAt,
  listEpisodes,
  type RecallableEpisode,
  recallableEpisodes,
  replaceSessionEpisodes,
  touchStrengths,
  type UpsertResult,
} from './episodes.ts';
export {
  finishIngestRun,
  type IngestRun,
  ingestWarningsOf,
  lastIngestRun,
  recordIngestWarning,
  type StoredIngestWarning,
  startIngestRun,
} from './ingest-runs.ts';
export {
  holdoutTally,
  INJECTION_MOMENTS,
  type Injection,
  type InjectionMoment,
  insertInjection,
  listInjections,
} from './injections.ts';
export { decodeSum, encodeSum, type KeptSum, readLessonSums, writeLessonSum } from './lesson-sums.ts';
export {
  assignEpisode,
  findLessonsByHash,
  getLesson,
  insertLesson,
  listLessons,
  moveSources,
  type NewLesson,
  offerShare,
  oldestSources,
  saveLesson,
  sourceIdsOf,
} from './lessons.ts';
export { acquireLock } from './lock.ts';
export {
  type DelegationTally,
  delegationTally,
  type OfferMoment,
  offerMoments,
  replaceSessionOffers,
} from './offers.ts';
export {
  type Db,
  keepTempInMemory,
  type OpenOptions,
  openStore,
  quickCheck,
  SCHEMA_VERSION,
  STORE_FILE,
  type Store,
} from './open.ts';
export { forgetPeer, learnPeer, listPeers, notePeerPull, type StoredPeer } from './peers.ts';
export {
  insertPrediction,
  listPredictions,
  movePredictions,
  resolvePrediction,
} from './predictions.ts';
export {
  addSupport,
  confirmedReceived,
  insertReceivedLesson,
  type Provenance,
  provenanceOf,
  type ReceivedLesson,
  raiseLesson,
  type SupportWay,
} from './provenance.ts';
export {
  clearStaleSession,
  getRawFile,
  listRawFiles,
  listRawFilesOfSession,
  markSessionStale,
  type RawFile,
  rawFileSources,
  rawFileTotals,
  type SourceTally,
  saveRawFile,
  staleSessions,
} from './raw-files.ts';
export {
  deleteRecord,
  getRecord,
  heldOrigins,
  putRecord,
  recordsAbout,
  recordsOf,
  type StoredRecord,
  type StoredRecordKind,
} from './records.ts';
export {
  findRelation,
  insertRelation,
  listRelations,
  type Relation,
  type RelationActor,
  type RelationKind,
  relationsOf,
} from './relations.ts';
export {
  approveLayer,
  deleteLayer,
  disableSharing,
  enableSharing,
  listLayerLessons,
  listLayers,
  putLayer,
  replaceLayerLessons,
  type StoredLayer,
  type StoredLayerLesson,
  type StoredLayerLevel,
  sharedProjects,
} from './sharing.ts';
export { lastSleep, recordSleep, replaceSleepReport } from './sleeps.ts';
export {
  oldestOpenPrediction,
  type SurpriseRow,
  sourcesReader,
  surprisesByIds,
  surprisesSince,
  waitingSurprises,
} from './surprises.ts';
export {
  addTombstone,
  getTombstone,
  listTombstones,
  type Tombstone,
  tombstoneHashes,
} from './tombstones.ts';
export {
  currentPredictionTallies,
  type LessonEvent,
  lastSeenOf,
  latestSessions,
  listLessonEvents,
  listLessonsById,
  listLessonsKnownAt,
  listPendingLessons,
  listReachableLessons,
  type PredictionTally,
  predictionTallies,
  saidInOneSession,
  sessionStarts,
} from './truth.ts';
export { deleteTurnsOfFile, insertTurns, insertTurnsJson, type StoredTurn, turnsOfFile } from './turns.ts';
export {
  deleteVector,
  getVector,
  listVectors,
  putVector,
  type StoredVector,
  type VectorOwner,
  vectorsInSpace,
} from './vectors.ts';
