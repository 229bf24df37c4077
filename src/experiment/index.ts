export {
  type ChatMessage,
  chat,
  type Endpoint,
  type RetryNotice,
  type ToolCall,
  visibleReply,
} from '../core/index.ts';
export { checkGoals, type GoalResult, goalsText } from './check-goals.ts';
export { type Goal, type GoalTarget, goals, goalsMarkdown, targetText } from './goals.ts';
export {
  CLOSING_CHARS,
  type HandbackAct,
  type ReplyReading,
  readReply,
  reminderWouldFire,
} from './handback.ts';
export { type ExperimentName, experimentNames, type KeptReply, keptFile, readKept } from './kept.ts';
export { handbackLesson, MEMORY_HEADER, wholeMemory } from './memory.ts';
export { type PairsReport, type PreferencePair, writePairs } from './pairs.ts';
export { type ExperimentPlan, plans } from './plan.ts';
export { type RunHooks, type RunOptions, type RunProgress, type RunReport, runExperiment } from './run.ts';
export { actSituations, askSituations, settings } from './situations.ts';
export { type ExperimentSummary, summarize, summaryText } from './summary.ts';
