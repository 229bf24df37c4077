/**
 * The detectors: read a person's message or an agent's reply through the rule sets in `cues/`, and for a
 * person's correction a learned model (`model/`) that reads the rules as features. Each rule set is compiled
 * once (`match.ts`), the first time it is needed. The two detectors a hook runs are in `detect-handback.ts`; the
 * failed tool call's, in `detect-failure.ts`.
 */
import {
  APPROVE,
  BARE_FIX,
  CLAIMED_SUCCESS,
  CONCESSION,
  CONVENTION,
  CORRECTION_ANYWHERE,
  CORRECTION_OPENING,
  DECLINE,
  ERROR_OUTPUT,
  FORBIDDING,
  INTERRUPTION,
  NOT_CORRECTION,
  NOT_SURPRISE,
  REDIRECT,
  STANDING,
  STATED_SURPRISE,
  STILL_BROKEN,
  WHOLE_SCOPE,
} from './cues/index.ts';
import { classifyHandback } from './detect-handback.ts';
import { type CueHit, compile, firstHit, lazily, normalizeLines, normalizeText, stripCode } from './match.ts';
import { correctionProbability, correctionThreshold } from './model/correction.ts';
import type { Context } from './model/features.ts';
import { isUiPrompt } from './ui-prompts.ts';

export { classifyFailure, ruleFailure } from './detect-failure.ts';
export { classifyHandback, HANDBACK_CHARS, needsPerson } from './detect-handback.ts';
export { type CueHit, matchesGroup, normalizeText } from './match.ts';

const cues = lazily({
  interruption: () => compile(INTERRUPTION),
  notCorrection: () => compile(NOT_CORRECTION),
  opening: () => compile(CORRECTION_OPENING),
  anywhere: () => compile(CORRECTION_ANYWHERE),
  convention: () => compile(CONVENTION),
  standing: () => compile(STANDING),
  forbidding: () => compile(FORBIDDING),
  concession: () => compile(CONCESSION),
  redirect: () => compile(REDIRECT),
  stillBroken: () => compile(STILL_BROKEN),
  errorOutput: () => compile(ERROR_OUTPUT),
  claimedSuccess: () => compile(CLAIMED_SUCCESS),
  wholeScope: () => compile(WHOLE_SCOPE),
  bareFix: () => compile(BARE_FIX),
  surprise: () => compile(STATED_SURPRISE),
  notSurprise: () => compile(NOT_SURPRISE),
  decline: () => compile(DECLINE),
  approve: () => compile(APPROVE),
});

/**
 * The message is pasted error output, not the person's own words: at least two of its first four lines read as
 * error output, and the first line is either one of them or a short heading (not a question or a request).
 */
function isBareLog(normalized: string): boolean {
  const lines = normalized
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 4);
  const logLines = lines.filter((line) => firstHit(cues.errorOutput, line) !== null);
  const first = lines[0] ?? '';
  const heading = first.split(' ').length <= 6 && !/[?:]$/.test(first);
  return logLines.length >= 2 && (logLines[0] === first || heading);
}

/**
 * Did the person correct the agent in this message? When a hand-written rule fires, yes, but for the hits
 * only the model weighs (`decides`). Otherwise the learned detector decides (`model/`, fitted by `npm run train`), reading the message, the agent's turn before
 * it and how that turn handed back. Its threshold was chosen out-of-fold, grouped by repository, for the most
 * recall at which the rules and the model together stay precise (`training.ts`).
 */
export function detectCorrection(
  said: string,
  agentBefore?: string,
  /** How the agent's turn handed back, when the caller classified it already (ingest does). */
  handback?: string | null,
): CueHit | null {
  return scoreCorrection(said, agentBefore, handback).hit;
}

/**
 * `detectCorrection`, with the learned detector's probability when it was asked (null when a rule decided, or
 * the rules ruled the model out): ingest keeps a message scored just under the threshold for the judge.
 */
export function scoreCorrection(
  said: string,
  agentBefore?: string,
  handback?: string | null,
  /** The message came right after another of the person's own: `agentBefore` is what that one answered. */
  followsMessage = false,
): { hit: CueHit | null; score: number | null } {
  const rule = ruleCorrection(said, agentBefore);
  if (rule && decides(rule, said, agentBefore)) return { hit: rule, score: null };
  const before = agentBefore ?? '';
  const context = correctionContext(said, before, rule, handback, followsMessage);
  if (!modelMayJudge(said, context, before)) return { hit: null, score: null };
  const score = correctionProbability(said, before, context);
  const hit =
    score >= correctionThreshold()
      ? { rule: 'learned', cue: `learned detector, p=${score.toFixed(2)}` }
      : null;
  return { hit, score };
}

/**
 * Whether a rule's hit is final, or only a feature the learned detector weighs. Out-of-fold, on the rows the rules
 * were not written from, a third of the hits of `REDIRECT` and `STILL_BROKEN` were a question or a new request
 * worded as a complaint ("I tried to paste it but it broke the json, can you check why", "there is already a
 * schema with these tables: connect it"); every other rule set was wrong about one time in six or less. A report
 * that it still fails stays final right after the agent said its change works, unless it asks something.
 */
export function decides(hit: CueHit, said: string, agentBefore?: string): boolean {
  if (hit.rule === REDIRECT.name) return false;
  if (hit.rule !== STILL_BROKEN.name) return true;
  return (
    // A question mark that ends a sentence, not one inside a pasted URL or log.
    !/\?(?=\s|$)/u.test(said) &&
    agentBefore !== undefined &&
    firstHit(cues.claimedSuccess, normalizeText(agentBefore)) !== null
  );
}

/** The hand-written rules' final verdicts alone: `ruleCorrection`, less the hits only the model weighs. */
export function decidingRule(said: string, agentBefore?: string): CueHit | null {
  const hit = ruleCorrection(said, agentBefore);
  return hit && decides(hit, said, agentBefore) ? hit : null;
}

/**
 * Whether the learned detector is asked at all about a message no rule called a correction: what the rules know
 * is not a correction stays one for the model too (a known request, an interrupt of the person's own prompt, or a
 * plain yes or no to the agent's offer or question). Training and the bench ask it too, so that they measure the detector as it runs.
 */
export function modelMayJudge(
  said: string,
  context: { handback: string | null },
  /** The agent's turn before; with none at all, only the rules read the message (see `scoreCorrection`). */
  before?: string,
): boolean {
  // Out-of-fold, the model's verdicts on messages with no agent turn before them were all wrong: an opening
  // request that names a failure ("the export writes an empty CSV since last week, find out why").
  if (before !== undefined && before.trim() === '') return false;
  if (isUiPrompt(said)) return false;
  const lines = normalizeLines(said);
  // An interrupt marker is the rules' alone: one they let pass interrupted the person's own prompt.
  if (firstHit(cues.interruption, lines) || firstHit(cues.notCorrection, lines)) return false;
  return !(context.handback !== null && context.handback !== 'waiting' && classifyAnswer(said) !== 'other');
}

/**
 * What the learned detector reads beside the words: how the agent's turn handed back, and the rule that fired. A
 * message right after the person's own (`followsMessage`) answers no hand-back: the earlier message had it to answer.
 */
export function correctionContext(
  said: string,
  before: string,
  rule = ruleCorrection(said, before),
  handback?: string | null,
  followsMessage = false,
): Context {
  return {
    followsMessage,
    // Given by the caller (null: it handed nothing back), else read off the agent's closing words.
    handback: followsMessage ? null : handback !== undefined ? handback : closingHandback(before),
    rule: rule?.rule ?? null,
  };
}

/** How the agent's turn handed back, read as ingest reads it for its offers (the closing 1,500 characters). */
function closingHandback(before: string): string | null {
  return before.trim() ? (classifyHandback(before)?.kind ?? null) : null;
}

/**
 * The hand-written rules alone: an opening "no", "that's not what I asked", "it still doesn't work", "you do
 * it", a bare error log right after the agent claimed success, and Claude Code's interrupt and refusal
 * markers. `agentBefore` is the agent's visible reply just before the message; an empty string means there
 * was none, and then only words that address the agent's act count.
 */
export function ruleCorrection(said: string, agentBefore?: string): CueHit | null {
  // A button's prompt (a retry, a plan's build, a terminal's notice) holds none of the person's words.
  if (isUiPrompt(said)) return null;
  const lines = normalizeLines(said);
  const marker = firstHit(cues.interruption, lines);
  if (marker) {
    // Interrupting one's own prompt before the agent did anything visible stops nothing of the agent's.
    const bare = lines === '[request interrupted by user]';
    return bare && agentBefore?.trim() === '' ? null : marker;
  }
  if (firstHit(cues.notCorrection, lines)) return null;
  // Each form of the message is normalized once.
  const flat = lines.replace(/\n/g, ' ');
  const text = ruleText(said, flat);
  const afterAgent = agentBefore === undefined || agentBefore.trim() !== '';
  let handedBack: ReturnType<typeof classifyHandback> | undefined;
  const handback = () => {
    handedBack ??= agentBefore ? classifyHandback(agentBefore) : null;
    return handedBack;
  };

  let opening = firstHit(cues.opening, text);
  // "no" to "Want me to …?" or "Which one?" answers the agent; "no" to "Does it work now?" says it does not.
  if (opening && answerOf(flat) === 'declined' && (handback()?.kind ?? 'waiting') !== 'waiting')
    opening = null;
  const hit = opening ?? firstHit(cues.anywhere, text);
  if (hit || !afterAgent) return hit;

  const broken =
    firstHit(cues.redirect, text) ?? firstHit(cues.stillBroken, text) ?? firstHit(cues.convention, text);
  if (broken) return broken;
  if (agentBefore && isBareLog(lines)) {
    const claimed = firstHit(cues.claimedSuccess, normalizeText(agentBefore));
    if (claimed) return { rule: ERROR_OUTPUT.name, cue: `a bare error log after ${claimed.cue}` };
  }
  const forbidding = firstHit(cues.forbidding, text);
  if (forbidding && !handback()) return forbidding;
  const whole = firstHit(cues.wholeScope, text);
  if (whole && handback()) return whole;
  // After "Want me to fix it?" a bare "fix" approves; after anything else it says the work is not done.
  const order = firstHit(cues.bareFix, text);
  return order && handback()?.kind !== 'offer' ? order : null;
}

/** A message as the rules read it whole: code left out, normalized, on one line (`flat`: the message so, code kept). */
function ruleText(said: string, flat = normalizeText(said)): string {
  const stripped = stripCode(said);
  return stripped === said ? flat : normalizeText(stripped);
}

/**
 * Whether a correction states a rule of the house ("no, use uv instead of python", "we never use axios here",
 * "please don't write docstrings in specs"), whichever rule found it: said once, such a rule holds for every later
 * session, not only the next.
 */
export function statesHouseRule(said: string): boolean {
  // Each sentence, then each clause of it: the rules that open a message ("please don't …") read a clause's
  // opening. A question states no rule: "don't you think we should refactor now?" asks.
  const states = (text: string) =>
    (firstHit(cues.convention, text) ?? firstHit(cues.forbidding, text)) !== null;
  return ruleText(said)
    .split(/(?<=[.!?]) +/)
    .some(
      (sentence) =>
        !sentence.trimEnd().endsWith('?') &&
        (states(sentence) || sentence.split(/(?<=[;:,—]) +/).some(states)),
    );
}

/**
 * Whether a correction states a rule the person holds to in every session: standing words (`STANDING`: "always",
 * "from now on", "stop …ing", in a dozen languages) or a rule of the house (`statesHouseRule`).
 */
export function statesStandingRule(said: string): boolean {
  return firstHit(cues.standing, normalizeText(said)) !== null || statesHouseRule(said);
}

/**
 * Does the agent's reply open by conceding that the person's message before it was right ("You're absolutely
 * right", "Good catch")? Read on the first sentence only: a concession later in a reply answers something else.
 */
export function concedes(reply: string): CueHit | null {
  const opening = normalizeText(reply.trimStart().slice(0, 160)).replace(/^[^\p{L}\p{N}]+/u, '');
  const hit = firstHit(cues.concession, opening);
  return hit ? { rule: hit.rule, cue: `the agent's next words conceded: ${hit.cue}` } : null;
}

/** Did the agent state, in this paragraph, that it was wrong or surprised? */
export function detectSurprise(paragraph: string): CueHit | null {
  return ruleSurprise(paragraph);
}

/** The hand-written rules alone: a stated surprise, unless a cue word is used in another sense. */
export function ruleSurprise(paragraph: string): CueHit | null {
  const text = normalizeLines(stripCode(paragraph));
  if (firstHit(cues.notSurprise, text)) return null;
  return firstHit(cues.surprise, text);
}

/** What the learned surprise detector reads beside the words: which rule called it one, or ruled it out. */
export function surpriseContext(paragraph: string): { rule: string | null; ruledOut: boolean } {
  const text = normalizeLines(stripCode(paragraph));
  const ruledOut = firstHit(cues.notSurprise, text) !== null;
  return { rule: ruledOut ? null : (firstHit(cues.surprise, text)?.rule ?? null), ruledOut };
}

/** The person's answer to a hand-back, when it is not a correction. */
export function classifyAnswer(said: string): 'declined' | 'approved' | 'other' {
  return answerOf(normalizeText(said));
}

function answerOf(text: string): 'declined' | 'approved' | 'other' {
  if (firstHit(cues.decline, text)) return 'declined';
  if (firstHit(cues.approve, text)) return 'approved';
  return 'other';
}
