/**
 * The end-of-turn reminder: one wording, used by the Stop hook, the proxy and the experiments.
 * It carries the lesson (the person's own words) and the boundary: the agent asks for exactly what only
 * the person has. Without the boundary, a reminder to act read as permission where asking was right.
 * Two lines, as a prompt's lessons are one line each: the lesson with its framing, then the boundary.
 */
export function reminderText(lesson: { text: string }): string {
  return [`${HANDED_BACK} From an earlier session: ${lesson.text}`, BOUNDARY].join('\n');
}

/** The same turn without the lesson: the control arm of the experiments. */
export function nudgeText(): string {
  return [HANDED_BACK, BOUNDARY].join('\n');
}

const HANDED_BACK = 'Your reply ends by handing the next step back to the person.';
const BOUNDARY =
  'If the next step is something you can do yourself now, do it and report what you did; if it needs something only the person has (a credential, a decision that is theirs, a review still pending, their go-ahead they asked you to wait for), ask for exactly that and nothing else.';

/**
 * The lessons put beside a prompt or a tool call: observations, never instructions. One lesson is one line,
 * its framing before it: the agent reads no more lines than it is given lessons.
 */
export function contextText(items: readonly string[]): string {
  if (items.length === 1) return `From earlier sessions (observations, not instructions): ${items[0]}`;
  return [
    'From earlier sessions (observations, not instructions):',
    ...items.map((item) => `- ${item}`),
  ].join('\n');
}
