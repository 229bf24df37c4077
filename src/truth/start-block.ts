import { statesRule } from '../sleep/index.ts';
import { type Db, latestSessions, saidInOneSession } from '../store/index.ts';
import type { Visible } from './types.ts';

/**
 * How many lessons session start loads: at most `standingRules` standing rules, the `recentLessons` most
 * recently said (since `recentSince`, when given), and the earliest said of the rest to fill `sessionStartLessons`.
 */
export interface StartBudget {
  sessionStartLessons: number;
  standingRules: number;
  recentLessons: number;
  /** Load the standing rules (up to `standingRules`) even past `sessionStartLessons`. */
  standingAlways?: boolean;
  /**
   * Lessons said more than once, every time in one session (`saidInOneSession`): not standing for that. Absent, a
   * lesson said more than once stands.
   */
  oneSession?: ReadonlySet<number>;
  /**
   * When the project's latest sessions began (`startBudget`): the recent lessons are those first said since, and
   * their places stay empty when those sessions taught fewer. Absent, the most recently said, however long ago.
   */
  recentSince?: string;
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
  const oneSession = new Set(saidInOneSession(db, project));
  if (params.perRecentCorrection <= 0) return { ...params, oneSession };
  const latest = latestSessions(db, project, params.recentSessions, params.recentSessionPrompts);
  if (latest.length === 0) return { ...params, oneSession };
  const mean = latest.reduce((sum, session) => sum + session.corrections, 0) / latest.length;
  const lessons = Math.ceil(mean * params.perRecentCorrection);
  return {
    ...params,
    sessionStartLessons: Math.min(params.sessionStartLessons, lessons),
    standingAlways: true,
    oneSession,
    recentSince: latest[latest.length - 1]!.startedAt,
  };
}

/**
 * A standing rule: a correction whose prediction was confirmed (strength above one), one the person worded as a
 * rule of the house (`statesRule`: said once, it holds for every later session, not only the next), or one said
 * more than once in more than one session. Two corrections in one session are one piece of work gone wrong twice
 * ("the button still flickers"; "still the same behaviour"), not a rule later sessions need: loaded at every session
 * start as a standing rule, such a theme was shown in eleven sessions of one development history and caught no
 * repeat.
 */
function isStanding(item: Visible, budget: StartBudget): boolean {
  if (item.type !== 'lesson') return false;
  const { lesson } = item;
  if (lesson.kind !== 'correction') return false;
  if (lesson.strength > 1 || (lesson.seen > 1 && budget.oneSession?.has(lesson.id) !== true)) return true;
  return lesson.origin === 'self' && statesRule(lesson.text);
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
 * then the most recently said (first said in the latest sessions). What later sessions repeat is mostly a rule
 * the person gave once, early in the project (how they want to work, which tool to use): strength falls with age
 * whether or not a lesson still applies, so ranked by strength such a rule left session start within weeks. The
 * most recent lessons keep yesterday's correction in front of today's session; everything else reaches the agent
 * when it applies, through the prompt and tool hooks.
 */
export function sessionStart(visible: readonly Visible[], budget: StartBudget): Visible[] {
  const seen = (item: Visible) => (item.type === 'lesson' ? item.lesson.seen : 0);
  const rules = Math.max(0, budget.standingRules);
  // Stable: on equal counts the projection's order (strength) stands.
  const ranked = visible.filter((item) => isStanding(item, budget)).sort((a, b) => seen(b) - seen(a));
  const total = Math.max(
    0,
    budget.sessionStartLessons,
    budget.standingAlways ? Math.min(rules, ranked.length) : 0,
  );
  const standing = ranked.slice(0, Math.min(rules, total));
  const taken = new Set(standing);
  const rest = visible.filter((item) => !taken.has(item)).sort(earliestFirst);
  const places = Math.min(Math.max(0, budget.recentLessons), total - standing.length);
  const since = budget.recentSince;
  const candidates = since === undefined ? rest : rest.filter((item) => firstSaid(item) >= since);
  const recent = candidates.slice(candidates.length - Math.min(places, candidates.length)).reverse();
  // Kept for the latest sessions' lessons even when they taught fewer (`recentSince`): an older lesson in their
  // place is one of the earliest's, loaded for no reason of its own.
  const reserved = since === undefined ? recent.length : places;
  const shown = new Set(recent);
  const earliest = rest.filter((item) => !shown.has(item)).slice(0, total - standing.length - reserved);
  return [...standing, ...earliest, ...recent];
}
