export { countBreakpoints, MAX_BREAKPOINTS } from './anthropic.ts';
export { createProxyApp } from './app.ts';
export { injectFromMemory, type ProxyMemoryDeps, recordExchange } from './memory.ts';
export { sessionOf } from './session.ts';
export type {
  Api,
  Exchange,
  Injection,
  InjectRequest,
  Placement,
  ProxyDeps,
  ProxyMessage,
} from './types.ts';
