/**
 * The detectors: read a person's message, an agent's reply or a failed tool call through the rule sets in
 * `cues/`. Rules, not a model; each rule set is compiled once, here, the first time it is needed.
 */
import type { HandbackKind } from '../core/index.ts';
import {
  APPROVE,
  BARE_FIX,
  CLAIMED_SUCCESS,
  CLARIFYING,
  CORRECTION_ANYWHERE,
  CORRECTION_OPENING,
  type CueGroup,
  DECLINE,
  ENVIRONMENT,
  ERROR_OUTPUT,
  HANDBACK,
  HARNESS_FRAMING,
  INTERRUPTION,
  MISSING_TOOL,
  NEEDS_PERSON,
  NOT_CORRECTION,
  NOT_HANDBACK,
  NOT_SURPRISE,
  PHONE_TYPING,
  POWERSHELL_ALIASES,
  PROBE,
  PROBE_ANSWER,
  PROJECT_LOCAL,
  REDIRECT,
  type RuleSet,
  SHELL_WRAPPER,
  STATED_SURPRISE,
  STILL_BROKEN,
  UNSPACED_LANGS,
  WAITING,
  WHOLE_SCOPE,
} from './cues/index.ts';

/** Which named rule set matched, and the pattern within it (its source). */
export interface CueHit {
  rule: string;
  cue: string;
}

interface Cue {
  rule: string;
  cue: string;
  /** The pattern as matched, and its flags: global, so a match that does not start on a word edge can be stepped past. */
  source: string;
  flags: string;
  /** Compiled on first use: behind the screens, most cues never run. */
  re?: RegExp;
  /** Held to word edges (languages written with spaces). */
  spaced: boolean;
}

const letter = /[\p{L}\p{N}]/u;
// A match that ends on a letter must not run on into another; the start is checked in `nextMatch`, which keeps
// the pattern's literal opening free for the engine's fast scan.
const wordEnd = '(?:(?![\\p{L}\\p{N}])|(?<![\\p{L}\\p{N}]))';

/**
 * A rule set's cues, and its screens: one pattern per set of flags, the cues' alternation, that matches somewhere
 * whenever one of the cues does. Most texts match no cue; the screens say so in one scan instead of one per cue.
 */
interface CueList {
  cues: Cue[];
  screens: RegExp[];
}

/** Compiles a rule set; in languages written with spaces a pattern must start and end on a word edge. */
function compile(set: RuleSet): CueList {
  const cues = set.groups.flatMap((group) =>
    group.patterns.map((pattern) => {
      const spaced = !UNSPACED_LANGS.includes(group.lang);
      const source = spaced ? `(?:${pattern.source})${wordEnd}` : pattern.source;
      const flags = [...new Set(`${pattern.flags}gu`)].join('');
      return { rule: set.name, cue: pattern.source, source, flags, spaced };
    }),
  );
  // A screen leaves out the word-end check: a weaker pattern still matches wherever the cue does, and that check,
  // repeated for every cue, would cost more to compile than the screen saves. A list of a few cues is its own screen.
  const byFlags = new Map<string, string[]>();
  for (const { cue, flags: cueFlags } of cues.length > 3 ? cues : []) {
    const flags = cueFlags.replace('g', '');
    byFlags.set(flags, [...(byFlags.get(flags) ?? []), `(?:${cue})`]);
  }
  const screens = [...byFlags].map(([flags, sources]) => new RegExp(sources.join('|'), flags));
  return { cues, screens };
}

/** False when no cue of the list matches anywhere in the text (a match the cue itself would then step past counts). */
function mayMatch(list: CueList, text: string): boolean {
  return list.screens.length === 0 || list.screens.some((screen) => screen.test(text));
}

/** The next match at or after `from` that starts on a word edge (a letter not preceded by a letter). */
function nextMatch(cue: Cue, text: string, from: number): RegExpExecArray | null {
  cue.re ??= new RegExp(cue.source, cue.flags);
  const { re, spaced } = cue;
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index;
    const onEdge = !spaced || at === 0 || !letter.test(text[at - 1] ?? '') || !letter.test(text[at] ?? '');
    if (onEdge) return m;
    re.lastIndex = at + 1;
  }
  return null;
}

/**
 * Builds each entry on first use and keeps it: compiling every rule set costs more than a hook may spend,
 * and a hook needs one or two of them.
 */
function lazily<T extends Record<string, () => unknown>>(
  makers: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const made = new Map<keyof T, unknown>();
  return new Proxy({} as { readonly [K in keyof T]: ReturnType<T[K]> }, {
    get(_target, key) {
      const name = key as keyof T;
      if (!made.has(name)) made.set(name, makers[name]?.());
      return made.get(name);
    },
  });
}

const cues = lazily({
  interruption: () => compile(INTERRUPTION),
  notCorrection: () => compile(NOT_CORRECTION),
  opening: () => compile(CORRECTION_OPENING),
  anywhere: () => compile(CORRECTION_ANYWHERE),
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
  needsPerson: () => compile(NEEDS_PERSON),
});

/** The closing's cues by what they make of the reply; `null` means "hands nothing back". */
const closing = lazily({
  cues: (): ReadonlyArray<{ kind: HandbackKind | null; cues: CueList }> => [
    { kind: 'offer', cues: compile(HANDBACK) },
    { kind: 'question', cues: compile(CLARIFYING) },
    { kind: 'waiting', cues: compile(WAITING) },
    { kind: null, cues: compile(NOT_HANDBACK) },
  ],
});

/** True if one of the group's patterns matches the text, read as the detectors read it (for tests of the examples). */
export function matchesGroup(group: CueGroup, text: string): boolean {
  const lines = normalizeLines(text);
  return compile({ name: '', groups: [group] }).cues.some((cue) => nextMatch(cue, lines, 0) !== null);
}

function firstHit(list: CueList, text: string): CueHit | null {
  if (!mayMatch(list, text)) return null;
  for (const cue of list.cues) if (nextMatch(cue, text, 0)) return { rule: cue.rule, cue: cue.cue };
  return null;
}

const typing = lazily({
  phone: () =>
    new RegExp(`(?<![\\p{L}\\p{N}'])(?:${Object.keys(PHONE_TYPING).join('|')})(?![\\p{L}\\p{N}'])`, 'gu'),
});
const NON_ASCII = /[^\u0000-\u007f]/;
const apostrophes = /[\u2018\u2019\u201A\u201B\u2032\u00B4\u02BC]/g;
const doubleQuotes = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\u300C\u300D\u300E\u300F]/g;

/** Like `normalizeText`, but keeps line breaks (some cues read whole lines). */
function normalizeLines(text: string): string {
  // ASCII is its own NFKC form and holds none of the marks replaced next; most agent text is ASCII.
  const ascii = !NON_ASCII.test(text)
    ? text
    : text
        .normalize('NFKC') // full-width letters, digits and punctuation → ASCII
        .replace(apostrophes, "'")
        .replace(doubleQuotes, '"')
        .replace(/\u3002/g, '. ')
        .replace(/\u3001/g, ', ');
  // Each run of spaces becomes one space and each line break sheds the spaces around it; the patterns match only
  // where that changes something, as most spaces and line breaks are already so.
  const spaced = ascii
    .toLowerCase()
    .replace(typing.phone, (word) => PHONE_TYPING[word] ?? word)
    .replace(/[^\S\n]{2,}|[^\S\n ]/g, ' ');
  return (spaced.includes('\n') ? spaced.replace(/ \n\s*|\n\s+/g, '\n') : spaced).trim();
}

/**
 * Text as the cues read it: curly quotes and apostrophes straight, full-width punctuation as ASCII, lower
 * case, whitespace collapsed, and phone typing spelled out ("dont" → "don't", "thats" → "that's", "u" → "you").
 */
export function normalizeText(text: string): string {
  return normalizeLines(text).replace(/\n/g, ' ');
}

/**
 * Leaves code out: fenced blocks and inline spans. A tail cut from a longer reply may open inside a block;
 * an odd number of fences means the first one closes a block that started before the cut.
 */
function stripCode(text: string): string {
  let rest = text;
  // Each step runs only when the text holds what it removes.
  if (rest.includes('```') || rest.includes('~~~')) {
    const fences = rest.match(/^ {0,3}(?:```|~~~)/gm)?.length ?? 0;
    if (fences % 2 === 1) rest = rest.replace(/^[\s\S]*?^ {0,3}(?:```|~~~)[^\n]*$/m, '');
    rest = rest.replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '');
  }
  if (rest.includes('`')) rest = rest.replace(/`[^`\n]{1,300}`/g, 'code');
  if (rest.includes('*') || rest.includes('_')) rest = rest.replace(/[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}/g, '');
  return rest;
}

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
 * Did the person correct the agent in this message? Anywhere in it: an opening "no", "that's not what I asked",
 * "it still doesn't work", "you do it", a bare error log right after the agent claimed success, and Claude
 * Code's interrupt and refusal markers. `agentBefore` is the agent's visible reply just before the message;
 * an empty string means there was none, and then only words that address the agent's act count.
 */
export function detectCorrection(said: string, agentBefore?: string): CueHit | null {
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

  const broken = firstHit(cues.redirect, text) ?? firstHit(cues.stillBroken, text);
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

/**
 * Does the reply's closing hand work back to the person? The closing ~1,500 characters are read with code left
 * out, and the last cue in them decides: an offer, a wait on something only the person has, a clarifying
 * question — or nothing, when the last cue is a generic pleasantry or the agent is still acting.
 */
export function classifyHandback(replyTail: string): Handback | null {
  // A derivation asks about the same closing again for each message that answers it.
  if (replyTail !== lastHandback.tail) lastHandback = { tail: replyTail, handback: handbackOf(replyTail) };
  const found = lastHandback.handback;
  return found && { kind: found.kind, hit: { ...found.hit } };
}

type Handback = { kind: HandbackKind; hit: CueHit };
let lastHandback: { tail: string | undefined; handback: Handback | null } = {
  tail: undefined,
  handback: null,
};

function handbackOf(replyTail: string): Handback | null {
  const text = normalizeLines(stripCode(replyTail.slice(-1500)));
  let last: { at: number; rank: number; kind: HandbackKind | null; hit: CueHit } | null = null;
  for (const [rank, { kind, cues: list }] of closing.cues.entries()) {
    if (!mayMatch(list, text)) continue;
    for (const cue of list.cues) {
      for (let m = nextMatch(cue, text, 0); m; m = nextMatch(cue, text, m.index + 1)) {
        // Later wins; at the same place, the later set (waiting over offer, "nothing" over all) wins.
        if (!last || m.index > last.at || (m.index === last.at && rank > last.rank)) {
          last = { at: m.index, rank, kind, hit: { rule: cue.rule, cue: cue.cue } };
        }
      }
    }
  }
  return last?.kind ? { kind: last.kind, hit: last.hit } : null;
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

/** Does the person's message say only they have what is needed (a credential, their decision, a review, "wait until")? */
export function needsPerson(said: string): boolean {
  return firstHit(cues.needsPerson, normalizeText(said)) !== null;
}
