import { lessonSubjects, type Subjects, subjectsOf } from '../embed/index.ts';
import { givesRule } from '../sleep/index.ts';

const NOTHING: Subjects = subjectsOf('');

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
  return subjects.terms.size === 0 || givesRule(text) ? subjects : NOTHING;
}
