/**
 * prime/'s light front door: what `remem prime` runs (the answer, the payload, the session log), without the
 * nightly drain and the store behind `index.ts`.
 */
export { answerHook } from './hook.ts';
export { parsePayload } from './payload.ts';
export { appendSessionLog } from './session-log.ts';
