export { embeddingText } from './embed-pass.ts';
export {
  formatTally,
  morningReportText,
  writeAtomically,
  writeMorningReport,
} from './files.ts';
export { RULES_VERSION } from './night.ts';
export type { LessonLine, SleepReport } from './report.ts';
export { settle, sleep } from './sleep.ts';
export { givesRule, headline, personQuotes, statesRule } from './wording.ts';
