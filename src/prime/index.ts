export {
  choosePrimes,
  chooseReminder,
  type Met,
  type OfferSources,
  type PrimeChoice,
  remindedEarlier,
} from './choose.ts';
export { drainPrimeLogs, type HookTiming, readHookTimings } from './drain.ts';
export { isHeldOut } from './holdout.ts';
export { answerHook, type HookAnswer, type HookDeps } from './hook.ts';
export { describeCall, type HookPayload, parsePayload } from './payload.ts';
export { contextText, nudgeText, reminderText } from './reminder.ts';
export {
  appendSessionLog,
  drainSessionLogs,
  type PrimeLogRow,
  primeDir,
  readSessionLog,
} from './session-log.ts';
