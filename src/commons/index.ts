export { type CommonsDeps, createCommonsApp } from './app.ts';
export { createStatesCache, type StatesCache, storedRecord } from './lessons.ts';
export { defaultCommonsDb, openCommonsStore } from './open-store.ts';
export {
  type GossipSimulation,
  renderSimulation,
  type SimulationOptions,
  type SimulationRow,
  simulateGossip,
} from './simulate.ts';
export { type CommonsState, computeStates, type LessonState, type StateOptions } from './states.ts';
export type {
  CommonsStore,
  FileToPut,
  IndexQuery,
  IndexRow,
  PutOutcome,
  StoredFile,
  StoredRecord,
  TokenRow,
} from './store.ts';
export { findBearer, hashToken, type IssuedToken, issueToken } from './tokens.ts';
