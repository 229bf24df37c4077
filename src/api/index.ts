export { type ApiDeps, createApiApp } from './app.ts';
export { BadHostError, describeReach, planReach, type Reach } from './reach.ts';
export { loadOrCreateToken } from './token.ts';
