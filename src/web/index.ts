export { createWebApp, mountWebApp, type WebDeps } from './app.ts';
export type { LessonDetail, PredictionView, RelationView, SourceView } from './detail.ts';
export {
  type LessonList,
  type LessonState,
  type LessonSummary,
  listLessonRows,
  type OpenQuestion,
} from './lessons.ts';
export { type MorningView, morningView } from './report.ts';
export { type ReviewView, reviewView } from './review.ts';
export { type SearchAnswer, type SearchHit, searchMemory } from './search.ts';
export { type Chart, chartsOf, type MemorySeries, memorySeries, type Proportion, wilson } from './series.ts';
export { type StrengthPoint, strengthChart, strengthHistory } from './strength.ts';
