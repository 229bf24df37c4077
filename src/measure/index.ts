export { fisherExact, logFactorial, share, type TwoByTwo } from './fisher.ts';
export { formatP, formatPercent, formatRate, renderTable } from './format.ts';
export { flatten, type LabelledHistory, readHistories, readHistory, wasShown } from './histories.ts';
export type { Arm, Comparison, HoldoutFigures } from './holdout.ts';
export { type HoldoutSummary, holdoutLines, holdoutSummary } from './holdout-summary.ts';
export { type MeasureReport, measure } from './measure.ts';
export type { PredictionFigures, RepeatFigures, Split, WeekOfRepeats, WeekOfSurprises } from './rates.ts';
export { weekOf } from './rates.ts';
export type { ReplayArm, ReplayFigures } from './replay.ts';
export {
  type HistoryReplay,
  type ReplayReport,
  replayAll,
  replayHistory,
  replayText,
} from './replay-histories.ts';
export { measureReportText } from './report.ts';
