export { type CommonsDeps, createCommonsApp } from './app.ts';
export { createStatesCache, type StatesCache, storedRecord } from './lessons.ts';
export {
  type GossipSimulation,
  renderSimulation,
  type SimulationOptions,
  type SimulationRow,
  simulateGossip,
} from './simulate.ts';
export { type CommonsState, computeStates, type LessonState, type StateOptions } from './states.ts';
export {
  type CommonsStore,
  defaultCommonsDb,
  type FileToPut,
  type IndexQuery,
  type IndexRow,
  openCommonsStore,
  type PutOutcome,
  type StoredFile,
  type StoredRecord,
  type TokenRow,
} from './store.ts';
export { findBearer, hashToken, type IssuedToken, issueToken } from './tokens.ts';
