export { fisherExact, logFactorial, share, type TwoByTwo } from './fisher.ts';
export { formatP, formatPercent, formatRate, renderTable } from './format.ts';
export type { Arm, Comparison, HoldoutFigures } from './holdout.ts';
export { type MeasureReport, measure } from './measure.ts';
export type { PredictionFigures, RepeatFigures, Split, WeekOfRepeats, WeekOfSurprises } from './rates.ts';
export { weekOf } from './rates.ts';
export type { ReplayArm, ReplayFigures } from './replay.ts';
export { measureReportText } from './report.ts';
