import { lessonSubjects, type Subjects, subjectsOf } from '../embed/index.ts';
import { statesHouseRule } from '../episodes/index.ts';

const REFUSED = /^The person refused the agent's /;
const ONE_MESSAGE = /(?:, the person answered|^The person told the agent): "([\s\S]*)"\.?$/;
const THEME =
  /^The person corrected the agent \d+ times about the same thing: "([\s\S]*)"(?: and \d+ more)?\.$/;
const NOTHING: Subjects = subjectsOf('');

/** The person's words a correction lesson quotes (`sleep/wording.ts` words it): its message, or each a theme quotes. */
export function quotedWords(text: string): string[] {
  const one = ONE_MESSAGE.exec(text);
  if (one) return [one[1]!];
  const theme = THEME.exec(text);
  return theme ? theme[1]!.split('"; "') : [];
}

/**
 * What a correction lesson is about, for a prompt or a call to meet it by subject alone: a lesson whose person
 * stated a rule of the house ("use pnpm, not npm", "never commit to main") is about the tools and files the rule
 * names, and a refused call about the call; any other correction is about the work at hand, and the words it shares
 * with a prompt must reach it. A question that names `uv`, a complaint that names CLAUDE.md, a bug report with
 * a log in it name a tool or a file without a rule about it: on the development histories, the prompts that met
 * lessons by subject alone (80 of the 114 items the prompt moment showed) met such lessons and caught no repeat.
 */
export function ruleSubjects(text: string): Subjects {
  if (REFUSED.test(text)) return lessonSubjects(text);
  return quotedWords(text).some(statesHouseRule) ? lessonSubjects(text) : NOTHING;
}
