import { statesHouseRule } from '../episodes/index.ts';
import { correctionsSaidOnce, type Db, latestSessionCorrections } from '../store/index.ts';
import type { Visible } from './types.ts';

/**
 * How many lessons session start loads: at most `standingRules` standing rules, the `recentLessons` most
 * recently said, and the earliest said of the rest to fill `sessionStartLessons`.
 */
export interface StartBudget {
  sessionStartLessons: number;
  standingRules: number;
  recentLessons: number;
  /** Load the standing rules (up to `standingRules`) even past `sessionStartLessons`. */
  standingAlways?: boolean;
  /** Lessons the person worded as a rule of the house (`statesHouseRule`): standing from the first time said. */
  houseRules?: ReadonlySet<number>;
}

/** The render parameters that size session start by the project's latest sessions (`startBudget`). */
export interface StartParams extends StartBudget {
  perRecentCorrection: number;
  recentSessions: number;
  recentSessionPrompts: number;
}

/**
 * The budget of a project's session start: `sessionStartLessons`, or fewer when the project's latest sessions left
 * few corrections (`perRecentCorrection` lessons for each, on average). The render, the hooks, the proxy and the
 * prime index each ask here, so what they take as loaded is what was loaded.
 */
export function startBudget(db: Db, project: string | null, params: StartParams): StartBudget {
  const houseRules = houseRulesOf(db, project);
  if (params.perRecentCorrection <= 0) return { ...params, houseRules };
  const counts = latestSessionCorrections(db, project, params.recentSessions, params.recentSessionPrompts);
  if (counts.length === 0) return { ...params, houseRules };
  const mean = counts.reduce((sum, n) => sum + n, 0) / counts.length;
  const lessons = Math.ceil(mean * params.perRecentCorrection);
  return {
    ...params,
    sessionStartLessons: Math.min(params.sessionStartLessons, lessons),
    standingAlways: true,
    houseRules,
  };
}

/** The lessons said once whose correction states a rule of the house. */
function houseRulesOf(db: Db, project: string | null): Set<number> {
  const found = new Set<number>();
  for (const { lessonId, said } of correctionsSaidOnce(db, project)) {
    if (!found.has(lessonId) && statesHouseRule(said)) found.add(lessonId);
  }
  return found;
}

/**
 * A standing rule: a correction said more than once, one whose prediction was confirmed (strength above one), or
 * one the person worded as a rule of the house.
 */
function isStanding(item: Visible, houseRules: ReadonlySet<number> | undefined): boolean {
  if (item.type !== 'lesson') return false;
  const { lesson } = item;
  return (
    lesson.kind === 'correction' &&
    (lesson.seen > 1 || lesson.strength > 1 || houseRules?.has(lesson.id) === true)
  );
}

/** When what an item says was first said: a question's earlier side. */
function firstSaid(item: Visible): string {
  return item.type === 'lesson'
    ? item.lesson.happenedAt
    : [item.lessons[0].happenedAt, item.lessons[1].happenedAt].sort()[0]!;
}

function earliestFirst(a: Visible, b: Visible): number {
  const x = firstSaid(a);
  const y = firstSaid(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * What session start loads, in the order it is listed: the standing rules (the most often said first: a rule
 * said three times is likelier to be needed again than one said twice), then the earliest said of the rest,
 * then the most recently said. What later sessions repeat is mostly a rule the person gave once, early in the
 * project (how they want to work, which tool to use): strength falls with age whether or not a lesson still
 * applies, so ranked by strength such a rule left session start within weeks. The most recent lessons keep
 * yesterday's correction in front of today's session; everything else reaches the agent when it applies, through
 * the prompt and tool hooks.
 */
export function sessionStart(visible: readonly Visible[], budget: StartBudget): Visible[] {
  const seen = (item: Visible) => (item.type === 'lesson' ? item.lesson.seen : 0);
  const rules = Math.max(0, budget.standingRules);
  // Stable: on equal counts the projection's order (strength) stands.
  const ranked = visible
    .filter((item) => isStanding(item, budget.houseRules))
    .sort((a, b) => seen(b) - seen(a));
  const total = Math.max(
    0,
    budget.sessionStartLessons,
    budget.standingAlways ? Math.min(rules, ranked.length) : 0,
  );
  const standing = ranked.slice(0, Math.min(rules, total));
  const taken = new Set(standing);
  const rest = visible.filter((item) => !taken.has(item)).sort(earliestFirst);
  const recentCount = Math.min(Math.max(0, budget.recentLessons), total - standing.length, rest.length);
  const recent = rest.slice(rest.length - recentCount).reverse();
  const earliest = rest.slice(0, Math.min(total - standing.length - recentCount, rest.length - recentCount));
  return [...standing, ...earliest, ...recent];
}
