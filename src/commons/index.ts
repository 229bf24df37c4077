export { type CommonsDeps, createCommonsApp } from './app.ts';
export { createStatesCache, type StatesCache } from './lessons.ts';
export { defaultCommonsDb, openCommonsStore } from './open-store.ts';
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
