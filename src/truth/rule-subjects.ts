import { lessonSubjects, type Subjects, subjectsOf } from '../embed/index.ts';
import { statesHouseRule } from '../episodes/index.ts';
import { isRefusedCall, personQuotes } from '../sleep/index.ts';

const NOTHING: Subjects = subjectsOf('');

/**
 * Whether a correction lesson states a rule of the house: one of the person's messages it quotes does
 * (`statesHouseRule`). Each text is read once per process: session start asks at every request of the proxy and
 * `remem serve`, at some 40 µs a message. Keyed by the text, not the lesson: one process may read several stores.
 */
export function statesRule(text: string): boolean {
  let known = rulesRead.get(text);
  if (known === undefined) {
    if (rulesRead.size >= RULES_READ) rulesRead.clear();
    known = personQuotes(text).some(statesHouseRule);
    rulesRead.set(text, known);
  }
  return known;
}
const rulesRead = new Map<string, boolean>();
const RULES_READ = 20_000;

/**
 * What a lesson is about, for a prompt or a call to meet it by subject alone: a correction whose person stated a
 * rule of the house ("use pnpm, not npm", "never commit to main") is about the tools and files the rule names, and a
 * refused call about the call; any other lesson is about the work at hand, and the words it shares with a prompt
 * must reach it. A question that names `uv`, a complaint that names CLAUDE.md, a bug report with a log in it name a
 * tool or a file without a rule about it: on the development histories, the prompts that met lessons by subject
 * alone (80 of the 114 items the prompt moment showed) met such lessons and caught no repeat.
 */
export function ruleSubjects(text: string): Subjects {
  const subjects = lessonSubjects(text);
  if (subjects.terms.size === 0 || isRefusedCall(text)) return subjects;
  return statesRule(text) ? subjects : NOTHING;
}
