export { type ApiDeps, createApiApp } from './app.ts';
export { loadOrCreateToken } from './token.ts';
