/**
 * The detectors: read a person's message, an agent's reply or a failed tool call through the rule sets in
 * `cues/`, and for a person's correction a learned model (`model/`) that reads the rules as features. Each rule
 * set is compiled once (`match.ts`), the first time it is needed. The two
 * detectors a hook runs are in `detect-handback.ts`.
 */
import {
  APPROVE,
  BARE_FIX,
  CLAIMED_SUCCESS,
  CONVENTION,
  CORRECTION_ANYWHERE,
  CORRECTION_OPENING,
  DECLINE,
  ENVIRONMENT,
  ERROR_OUTPUT,
  HARNESS_FRAMING,
  INTERRUPTION,
  MISSING_TOOL,
  NOT_CORRECTION,
  NOT_SURPRISE,
  POWERSHELL_ALIASES,
  PROBE,
  PROBE_ANSWER,
  PROJECT_LOCAL,
  REDIRECT,
  SHELL_WRAPPER,
  STATED_SURPRISE,
  STILL_BROKEN,
  WHOLE_SCOPE,
} from './cues/index.ts';
import { classifyHandback } from './detect-handback.ts';
import {
  type CueHit,
  type CueList,
  compile,
  firstHit,
  lazily,
  nextMatch,
  normalizeLines,
  normalizeText,
  stripCode,
} from './match.ts';
import { correctionProbability, correctionThreshold } from './model/correction.ts';

export { classifyHandback, HANDBACK_CHARS, needsPerson } from './detect-handback.ts';
export { type CueHit, matchesGroup, normalizeText } from './match.ts';

const cues = lazily({
  interruption: () => compile(INTERRUPTION),
  notCorrection: () => compile(NOT_CORRECTION),
  opening: () => compile(CORRECTION_OPENING),
  anywhere: () => compile(CORRECTION_ANYWHERE),
  convention: () => compile(CONVENTION),
  redirect: () => compile(REDIRECT),
  stillBroken: () => compile(STILL_BROKEN),
  errorOutput: () => compile(ERROR_OUTPUT),
  claimedSuccess: () => compile(CLAIMED_SUCCESS),
  wholeScope: () => compile(WHOLE_SCOPE),
  bareFix: () => compile(BARE_FIX),
  surprise: () => compile(STATED_SURPRISE),
  notSurprise: () => compile(NOT_SURPRISE),
  environment: () => compile(ENVIRONMENT),
  missingTool: () => compile(MISSING_TOOL),
  projectLocal: () => compile(PROJECT_LOCAL),
  shellWrapper: () => compile(SHELL_WRAPPER),
  framing: () => compile(HARNESS_FRAMING),
  probe: () => PROBE.groups.map((group) => compile({ name: PROBE.name, groups: [group] })),
  probeAnswer: () => compile(PROBE_ANSWER),
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
 * Did the person correct the agent in this message? When a hand-written rule fires, yes. Otherwise the
 * learned detector decides (`model/`, fitted by `npm run train`), reading the message, the agent's turn before
 * it and how that turn handed back. Its threshold was chosen out-of-fold, grouped by repository, so that the
 * rules and the model together are as precise as the rules alone on rows the rules were not written from.
 */
export function detectCorrection(
  said: string,
  agentBefore?: string,
  /** How the agent's turn handed back, when the caller classified it already (ingest does). */
  handback?: string | null,
): CueHit | null {
  const rule = ruleCorrection(said, agentBefore);
  if (rule) return rule;
  // What the rules know is not a correction stays one for the model too: a known request, or a plain yes or no
  // to the agent's offer or question.
  if (firstHit(cues.notCorrection, normalizeLines(said))) return null;
  const before = agentBefore ?? '';
  const context = correctionContext(said, before, rule, handback);
  if (context.handback !== null && context.handback !== 'waiting' && classifyAnswer(said) !== 'other')
    return null;
  const score = correctionProbability(said, before, context);
  return score >= correctionThreshold()
    ? { rule: 'learned', cue: `learned detector, p=${score.toFixed(2)}` }
    : null;
}

/** What the learned detector reads beside the words: how the agent's turn handed back, and the rule that fired. */
export function correctionContext(
  said: string,
  before: string,
  rule = ruleCorrection(said, before),
  handback?: string | null,
) {
  return {
    // classifyHandback reads the turn's closing 1,500 characters, as ingest does for its offers.
    handback:
      handback !== undefined ? handback : before.trim() ? (classifyHandback(before)?.kind ?? null) : null,
    rule: rule?.rule ?? null,
  };
}

/**
 * The hand-written rules alone: an opening "no", "that's not what I asked", "it still doesn't work", "you do
 * it", a bare error log right after the agent claimed success, and Claude Code's interrupt and refusal
 * markers. `agentBefore` is the agent's visible reply just before the message; an empty string means there
 * was none, and then only words that address the agent's act count.
 */
export function ruleCorrection(said: string, agentBefore?: string): CueHit | null {
  const lines = normalizeLines(said);
  const marker = firstHit(cues.interruption, lines);
  if (marker) {
    // Interrupting one's own prompt before the agent did anything visible stops nothing of the agent's.
    const bare = lines === '[request interrupted by user]';
    return bare && agentBefore?.trim() === '' ? null : marker;
  }
  if (firstHit(cues.notCorrection, lines)) return null;
  // Each form of the message is normalized once.
  const stripped = stripCode(said);
  const flat = lines.replace(/\n/g, ' ');
  const text = stripped === said ? flat : normalizeText(stripped);
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
  const whole = firstHit(cues.wholeScope, text);
  if (whole && handback()) return whole;
  // After "Want me to fix it?" a bare "fix" approves; after anything else it says the work is not done.
  const order = firstHit(cues.bareFix, text);
  return order && handback()?.kind !== 'offer' ? order : null;
}

/** Did the agent state, in this paragraph, that it was wrong or surprised? */
export function detectSurprise(paragraph: string): CueHit | null {
  const text = normalizeLines(stripCode(paragraph));
  if (firstHit(cues.notSurprise, text)) return null;
  return firstHit(cues.surprise, text);
}

function exitCodeOf(error: string): number | undefined {
  const m = /(?:exited with code|exit code|exit status)[: ]+(\d+)/.exec(error);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/**
 * Was a failed tool call the agent's own mistake (an error episode) or the environment's (a missing tool,
 * a permission or password, the network, the person cancelling, a probe whose failing answer was the point)?
 */
export function classifyFailure(f: { tool: string; input: string; error: string; exitCode?: number }): {
  kind: 'agent_mistake' | 'environment';
  hit: CueHit | null;
} {
  const environment = (hit: CueHit) => ({ kind: 'environment' as const, hit });
  const input = normalizeLines(f.input);
  const lines = normalizeLines(f.error).split('\n');
  const wrapper = lines.filter((line) => firstHit(cues.shellWrapper, line));
  const kept = lines.filter((line) => !firstHit(cues.shellWrapper, line));
  const error = kept.join('\n').trim();
  if (/cancel/i.test(f.tool))
    return environment({ rule: 'ENVIRONMENT', cue: 'the person cancelled the call' });
  if (error === '' && wrapper.length > 0)
    return environment(firstHit(cues.shellWrapper, wrapper.join('\n'))!);

  for (const missing of cues.missingTool.cues) {
    const name = nextMatch(missing, error, 0)?.[1];
    if (name === undefined) continue;
    const local = firstHit(cues.projectLocal, name);
    if (local) return { kind: 'agent_mistake', hit: local };
    return environment({ rule: missing.rule, cue: missing.cue });
  }
  const cmdlet = /\[([a-z]+-[a-z]+)\], \w*exception/.exec(error)?.[1];
  if (cmdlet) {
    const names = POWERSHELL_ALIASES[cmdlet] ?? [cmdlet];
    const called = names.some((name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(input));
    if (!called)
      return environment({
        rule: 'SHELL_WRAPPER',
        cue: `error from ${cmdlet}, which the command did not call`,
      });
  }
  const env = firstHit(cues.environment, error);
  if (env) return environment(env);

  const exit = f.exitCode ?? exitCodeOf(error);
  const output = kept.filter((line) => line.trim() !== '' && !firstHit(cues.framing, line));
  const answer = firstHit(cues.probeAnswer, error);
  const [gitProbe, searchProbe, httpProbe] = cues.probe as [CueList, CueList, CueList];
  const probe =
    ((answer || exit === 128) && firstHit(gitProbe, input)) ||
    (exit === 1 && output.length === 0 && firstHit(searchProbe, input)) ||
    (answer && firstHit(httpProbe, input));
  if (probe) return environment(answer ?? probe);
  return { kind: 'agent_mistake', hit: null };
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
