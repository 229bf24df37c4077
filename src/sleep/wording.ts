import { checkObservation, maskSecrets, shortenAtWord } from '../core/index.ts';
import { statesHouseRule } from '../episodes/index.ts';
import type { NightEpisode } from './night.ts';
import { correctionWords } from './own-words.ts';

/** The person's words are quoted as said; only a very long message is cut, and the cut is marked. */
const QUOTE_CHARS = 400;
const ANSWERED_CHARS = 160;
/** How many corrections a theme quotes; the rest it counts. */
export const THEME_QUOTES = 6;

/** A secret in the quoted text (a key, a token, a password in a command) is masked before the cut, whole. */
export function quote(text: string, max: number): string {
  return shortenAtWord(maskSecrets(text), max);
}

/**
 * The openings the wordings of correction lessons are written with, and read back by (`isRefusedCall`,
 * `headline`, `personQuotes`): each is written here once.
 */
const REFUSED_OPENING = "The person refused the agent's ";
const STOPPED_OPENING = 'The person stopped the agent ';
const TOLD = 'The person told the agent: ';
const SAID_OPENING = 'When the agent said ';
const afterCallOpening = (tool: string) => `After the agent's ${tool} call `;
const ANSWERED = ', the person answered: ';
const SAYING = ', saying: ';
const themeOpening = (total: number | string) =>
  `The person corrected the agent ${total} times about the same thing: `;

/** Whether a correction lesson tells of a refused call: the wording `correctionText` writes for one. */
export function isRefusedCall(text: string): boolean {
  return text.startsWith(REFUSED_OPENING);
}

/**
 * A correction lesson quotes the person verbatim and the agent sentence they answered — never a paraphrase:
 * on terse real messages a paraphrase said the opposite of what was meant.
 */
export function correctionText(source: NightEpisode): string {
  const said = quote(correctionWords(source), QUOTE_CHARS);
  const refused = source.detail['refusedTool'];
  if (typeof refused === 'string') {
    const call = quote(String(source.detail['refusedCall'] ?? ''), ANSWERED_CHARS);
    const reason = source.said && !source.said.startsWith('[refused') ? `${SAYING}"${said}"` : '';
    return `${REFUSED_OPENING}${refused} call${call ? ` "${call}"` : ''}${reason}.`;
  }
  const lastCall = source.detail['lastCall'];
  // Stopped and nothing said after: what the agent was running, else what it had said, is the lesson.
  if (source.detail['stopped'] === true) {
    if (typeof lastCall === 'string' && lastCall.trim())
      return `${STOPPED_OPENING}during its ${String(source.detail['lastTool'] ?? 'tool')} call "${quote(lastCall, ANSWERED_CHARS)}".`;
    if (source.agentBefore?.trim())
      return `${STOPPED_OPENING}after it said "${quote(source.agentBefore, ANSWERED_CHARS)}".`;
  }
  if (typeof lastCall === 'string' && lastCall.trim()) {
    const tool = String(source.detail['lastTool'] ?? 'tool');
    return `${afterCallOpening(tool)}"${quote(lastCall, ANSWERED_CHARS)}"${ANSWERED}"${said}"`;
  }
  if (source.agentBefore?.trim()) {
    return `${SAID_OPENING}"${quote(source.agentBefore, ANSWERED_CHARS)}"${ANSWERED}"${said}"`;
  }
  return `${TOLD}"${said}"`;
}

/**
 * A theme of `total` corrections that mean the same thing, quoting the first `THEME_QUOTES` in the order they were
 * made (`sources` holds at least those), each wording once: a person who said the same words twice is counted
 * twice and quoted once.
 */
export function themeText(
  sources: readonly Pick<NightEpisode, 'id' | 'happenedAt' | 'said' | 'text'>[],
  total = sources.length,
): string {
  const ordered = [...sources].sort((a, b) =>
    a.happenedAt < b.happenedAt ? -1 : a.happenedAt > b.happenedAt ? 1 : a.id - b.id,
  );
  const quotes = new Map<string, string>();
  for (const source of ordered.slice(0, THEME_QUOTES)) {
    const said = `"${quote(correctionWords(source), 160)}"`;
    const key = said.toLowerCase().replace(/\s+/g, ' ');
    if (!quotes.has(key)) quotes.set(key, said);
  }
  const more = total > THEME_QUOTES ? ` and ${total - THEME_QUOTES} more` : '';
  return `${themeOpening(total)}${[...quotes.values()].join('; ')}${more}.`;
}

/**
 * A lesson's line for an index, before it is cut to length: for a correction the person's own words come first (the
 * agent sentence they answered would otherwise take the line), read back from what `correctionText` and `themeText`
 * write; any other lesson as worded. `text` has its whitespace collapsed.
 */
export function headline(kind: string, text: string): string {
  const said = kind === 'correction' && !text.startsWith(TOLD) ? PERSON_SAID.exec(text) : null;
  if (said) {
    const words = text.slice(said.index + said[0].length).replace(/"\.?$/, '');
    const refused = REFUSED_SAYING.exec(text);
    const lead = refused
      ? `Refused ${refused[1]} call${refused[2] ? ` ${refused[2]}` : ''}; the person said`
      : 'The person said';
    return `${lead}: "${words}"`;
  }
  const theme = THEME.exec(text);
  return theme ? `The person said ${theme[1]} times: ${text.slice(theme[0].length)}` : text;
}

/** Where the person's words start in a correction lesson that quotes one message after an agent's turn or call. */
const PERSON_SAID = new RegExp(`(?:${ANSWERED}|${SAYING})"`);
const REFUSED_SAYING = new RegExp(`^${REFUSED_OPENING}(.+?) call(?: (".*?"))?${SAYING}"`);
const THEME = new RegExp(`^${themeOpening('(\\d+)')}`);
const ONE_MESSAGE = new RegExp(`(?:${ANSWERED}|^${TOLD})"([\\s\\S]*)"\\.?$`);
const THEME_QUOTES_OF = /^"([\s\S]*)"(?: and \d+ more)?\.$/;

/**
 * The person's words a correction lesson quotes, read back from the text `correctionText` and `themeText` write: the
 * one message, or each message a theme quotes, oldest first; none for a text in another wording.
 */
export function personQuotes(text: string): string[] {
  const one = ONE_MESSAGE.exec(text);
  if (one) return [one[1]!];
  const theme = THEME.exec(text);
  const quoted = theme && THEME_QUOTES_OF.exec(text.slice(theme[0].length));
  return quoted ? quoted[1]!.split('"; "') : [];
}

/**
 * Whether a correction lesson states a rule of the house: one of the person's messages it quotes does
 * (`statesHouseRule`). Each text is read once per process: session start asks at every request of the proxy and
 * `remem serve`, at some 40 µs a message, and a night's merge at every pair it weighs. Keyed by the text, not the
 * lesson: one process may read several stores, and a theme's text changes as it grows.
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
 * Whether a correction lesson gives a rule about what it names: a refused call, or a quote of the person's that
 * states a rule of the house ("use pnpm, not npm"). Such a lesson is about its tools and files (`ruleSubjects`), and
 * two of them about one command merge at `params.linkageSameRule`.
 */
export function givesRule(text: string): boolean {
  return isRefusedCall(text) || statesRule(text);
}

/**
 * An error lesson, worded from its most recent source: what was run and the line of its failure that names the
 * error, in quotes — a tool's output is data, and text in it that reads as an order must not reach an agent as one.
 */
export function errorText(sources: readonly NightEpisode[]): string {
  const latest = sources[sources.length - 1]!;
  const tool = latest.tool ?? 'a tool';
  const call = quote(String(latest.detail['input'] || latest.detail['description'] || ''), 120);
  return `The agent's ${tool} call${call ? ` "${call}"` : ''} failed: "${quote(latest.text, 200)}"`;
}

/** A stated-surprise lesson, quoting what the agent said when it found it was wrong. */
export function surpriseText(sources: readonly NightEpisode[]): string {
  const latest = sources[sources.length - 1]!;
  return `The agent found it had been wrong: "${quote(latest.text, 240)}"`;
}

export function lessonText(sources: readonly NightEpisode[]): string {
  const first = sources[0]!;
  if (first.kind === 'correction') return sources.length === 1 ? correctionText(first) : themeText(sources);
  if (first.kind === 'error') return errorText(sources);
  return surpriseText(sources);
}

/**
 * A wording is kept only when it reads as an observation; the deterministic wording otherwise. `maxChars` bounds a
 * model's wording; the deterministic one, which quotes, may run to 600.
 */
export function acceptWording(
  candidate: string | null,
  fallback: string,
  maxChars = 600,
): { text: string; refused: string | null } {
  if (candidate === null) return { text: fallback, refused: null };
  const problem = checkObservation(candidate, maxChars);
  return problem ? { text: fallback, refused: problem } : { text: candidate, refused: null };
}
