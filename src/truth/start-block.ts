import type { Visible } from './types.ts';

/** How many lessons session start loads, and how many of those (at most half) are chosen as the longest-standing. */
export interface StartBudget {
  sessionStartLessons: number;
  longStanding: number;
}

/** A standing rule: a correction said more than once, or one whose prediction was confirmed (strength above one). */
function isStanding(item: Visible): boolean {
  if (item.type !== 'lesson') return false;
  const { lesson } = item;
  return lesson.kind === 'correction' && (lesson.seen > 1 || lesson.strength > 1);
}

/** When what an item says was first said: a question's earlier side. */
function firstSaid(item: Visible): string {
  return item.type === 'lesson'
    ? item.lesson.happenedAt
    : [item.lessons[0].happenedAt, item.lessons[1].happenedAt].sort()[0]!;
}

/**
 * What session start loads, in the order it is listed. First the strongest, the standing rules ahead (the most
 * often said first: a rule said three times is likelier to be needed again than one said twice), then the rest
 * in the projection's order; then, to fill the budget, the longest-standing of what is left, the earliest said
 * first. Strength falls with age whether or not a lesson still applies, and a rule said once early in a project
 * (how the person wants to work, which tool to use) is what later sessions repeat most: ranked by strength alone,
 * it left session start within weeks.
 */
export function sessionStart(visible: readonly Visible[], budget: StartBudget): Visible[] {
  const total = Math.max(0, budget.sessionStartLessons);
  const seen = (item: Visible) => (item.type === 'lesson' ? item.lesson.seen : 0);
  // Stable: on equal counts the projection's order (strength) stands.
  const standing = visible.filter(isStanding).sort((a, b) => seen(b) - seen(a));
  const byStrength = [...standing, ...visible.filter((item) => !isStanding(item))];
  // The longest-standing take at most half: a small budget goes to the strongest first.
  const longStanding = Math.min(Math.max(0, budget.longStanding), Math.floor(total / 2));
  const strongest = byStrength.slice(0, total - longStanding);
  const taken = new Set(strongest);
  const longest = visible
    .filter((item) => !taken.has(item))
    .sort((a, b) => (firstSaid(a) < firstSaid(b) ? -1 : firstSaid(a) > firstSaid(b) ? 1 : 0))
    .slice(0, total - strongest.length);
  return [...strongest, ...longest];
}
