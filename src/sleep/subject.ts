/**
 * Subject and polarity: the two rules by which sleep decides that two lessons disagree.
 *
 * Subject: two lessons are about one subject when the hashed-space cosine of their words (the person's words
 * for a correction, the agent's for a stated surprise) reaches `params.truth.subjectCut` — always the hashed
 * space, whatever space tonight runs in, so the rule reads the same on every machine.
 *
 * Polarity: whether those words deny what they talk about. Count the negation cues; an odd count is
 * negative. Only a short text makes one claim whose polarity can be read: a long one (more than
 * `params.truth.claimMaxTerms` terms) says several things, and its count of negations says nothing of any one
 * of them, so it has no polarity and disagrees with nothing. Two kinds of "no" say nothing about the subject and are not counted: a clause made only of
 * interjections ("No, …", "Nope.", "Not quite,") is the person disagreeing with the agent, and a negation
 * that opens a clause after a comma is a contrast ("uv, not pip": it says what is used).
 */
import type { LessonKind } from '../core/index.ts';
import { isCommand, tokenize } from '../embed/index.ts';
import type { NightEpisode, NightLesson } from './night.ts';
import { personQuotes } from './wording.ts';

/** One rule set, as data: the words and the labelled sentences that justify them. */
export interface PolarityRules {
  /** Words that deny (apostrophes dropped, as the tokenizer drops them: "don't" → "dont"). */
  negations: readonly string[];
  /** Words that, alone in a clause, only answer the agent. */
  interjections: readonly string[];
  negative: readonly string[];
  positive: readonly string[];
}

export const polarityRules: PolarityRules = {
  negations: [
    // en
    'not',
    'no',
    'never',
    'dont',
    'doesnt',
    'didnt',
    'isnt',
    'arent',
    'wasnt',
    'werent',
    'wont',
    'cant',
    'cannot',
    'couldnt',
    'shouldnt',
    'wouldnt',
    'hasnt',
    'havent',
    'hadnt',
    'mustnt',
    'neednt',
    'aint',
    'nothing',
    'none',
    'nobody',
    'nowhere',
    'neither',
    'nor',
    'without',
    // fr, es, pt, de, it
    'pas',
    'jamais',
    'aucun',
    'aucune',
    'nunca',
    'jamás',
    'ningún',
    'ninguna',
    'nada',
    'não',
    'nicht',
    'kein',
    'keine',
    'keinen',
    'nie',
    'niemals',
    'non',
    'mai',
    'nessun',
    'nessuna',
  ],
  interjections: [
    'no',
    'nope',
    'nah',
    'not',
    'quite',
    'really',
    'actually',
    'wait',
    'well',
    'hmm',
    'oh',
    'ok',
    'okay',
    'sorry',
    'yes',
    'yeah',
    'non',
    'nein',
    'não',
  ],
  negative: [
    'the tests do not run in parallel',
    'this project does not use uv anymore, it uses pip',
    "we don't deploy on Fridays",
    'no, the staging database is not postgres 15, it is postgres 16',
    'there is no Makefile in this repository',
    'die Tests laufen nicht parallel',
    "il n'y a pas de tests ici",
  ],
  positive: [
    'the tests run in parallel',
    'no, this project uses uv, not pip',
    'Nope. The deploy runs on Fridays.',
    'not quite, the staging database is postgres 16',
    "it isn't that the build doesn't work, it is slow",
    'the API returns dates in UTC',
  ],
};

const negations = new Set(polarityRules.negations);
const interjections = new Set(polarityRules.interjections);
/** Clause breaks, kept by the split: commas, semicolons, colons, ! and ?, and a full stop before a space or the end. */
const clauseBreak = /([,;:!?]+|\.(?=\s|$))/u;

export type Polarity = 'positive' | 'negative' | 'none';

const polarities = new Map<string, Polarity>();

/**
 * Whether the words deny what they talk about (odd count of negation cues) or affirm it; 'none' for words of
 * more than `maxTerms` terms, which make more than one claim.
 */
export function polarityOf(words: string, maxTerms: number): Polarity {
  // Sleep asks about the same words again and again (each lesson against each new surprise): read them once.
  const key = `${maxTerms}\u0000${words}`;
  const known = polarities.get(key);
  if (known) return known;
  const found = tokenize(words).length > maxTerms ? 'none' : readPolarity(words);
  if (polarities.size > 100_000) polarities.clear();
  polarities.set(key, found);
  return found;
}

/** Words after which "not" denies what follows ("do not use npm", "is not npm"). */
const AUXILIARIES = new Set(
  'do does did is are was were am im be been can could should would will shall must may might have has had its thats'.split(
    ' ',
  ),
);

function contrastsCommands(terms: readonly string[], position: number): boolean {
  const before = terms[position - 1]!;
  const after = terms[position + 1];
  if (AUXILIARIES.has(before)) return false;
  return isCommand(before) || (after !== undefined && isCommand(after));
}

function readPolarity(words: string): 'positive' | 'negative' {
  const parts = words.split(clauseBreak);
  let opening = true;
  let count = 0;
  for (let index = 0; index < parts.length; index += 2) {
    const terms = tokenize(parts[index]!);
    if (terms.length === 0) continue;
    if (opening && terms.every((term) => interjections.has(term))) continue;
    opening = false;
    const afterComma = index > 0 && parts[index - 1]!.startsWith(',');
    terms.forEach((term, position) => {
      if (!negations.has(term)) return;
      // "uv, not pip": a negation opening a clause after a comma contrasts, it does not deny.
      if (position === 0 && afterComma) return;
      // "pnpm not npm", "uv run not python": "not" beside a command, after no auxiliary, contrasts the two.
      if (term === 'not' && position > 0 && contrastsCommands(terms, position)) return;
      count++;
    });
  }
  return count % 2 === 1 ? 'negative' : 'positive';
}

/** The words a lesson with no sources here speaks in: the person's last quoted message, its last quoted span, or its whole text. */
export function quotedWords(text: string): string {
  const said = personQuotes(text);
  if (said.length > 0) return said[said.length - 1]!;
  const spans = [...text.matchAll(/"([^"]+)"/gu)].map((match) => match[1]!);
  return spans.length ? spans[spans.length - 1]! : text;
}

/** The kinds whose words make a claim; an error records what failed, and two failures never disagree. */
const claimKinds: ReadonlySet<LessonKind> = new Set(['correction', 'surprise']);

/** The words an episode speaks in: the person's for a correction, the agent's for a stated surprise. */
export function wordsOfEpisode(episode: Pick<NightEpisode, 'kind' | 'said' | 'text'>): string {
  return episode.kind === 'correction' ? (episode.said ?? episode.text) : episode.text;
}

/** The words a lesson speaks in now: its latest source's, or its own text's last quotation. */
export function wordsOfLesson(entry: NightLesson): string {
  const latest = entry.sources[entry.sources.length - 1];
  return latest ? wordsOfEpisode(latest) : quotedWords(entry.lesson.text);
}

/**
 * Whether two things of one kind say opposite things: never for errors; for corrections and stated surprises,
 * when their words differ in polarity and both have one. Sleep neither joins, merges nor confirms across such a difference:
 * the newer words are a lesson of their own, related to the older by the relations pass.
 */
export function disagree(kind: LessonKind, a: string, b: string, maxTerms: number): boolean {
  if (!claimKinds.has(kind)) return false;
  const first = polarityOf(a, maxTerms);
  const second = polarityOf(b, maxTerms);
  return first !== 'none' && second !== 'none' && first !== second;
}

/** Whether the lessons' kind makes claims that can contradict each other. */
export function makesClaims(kind: LessonKind): boolean {
  return claimKinds.has(kind);
}
