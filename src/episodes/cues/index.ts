/**
 * The cues: named rule sets that read surprises out of agent transcripts (paper §4.1, §4.3.1, Appendix A).
 *
 * Each set is data a person can read and extend: patterns grouped by language, and for each group the ids of
 * labelled rows in the development data (`shared/data/*.jsonl`) that justify it. Patterns are matched against
 * text after `normalizeText` (lower case, straight apostrophes, phone typing spelled out: "dont" → "don't"),
 * so write them in lower case with straight apostrophes. In languages written with spaces a pattern must match
 * whole words; in Chinese, Japanese, Korean and Thai it matches anywhere. Keep every quantifier bounded (`.{0,40}`):
 * the detectors run in a hook with a 1.5 s budget and over every transcript.
 */

export type { CueGroup, RuleSet } from './rule-set.ts';

/** Languages written without spaces between words: their patterns are not held to word boundaries. */
export const UNSPACED_LANGS: readonly string[] = ['zh', 'ja', 'ko', 'th', 'any'];

/**
 * Phone typing, missing apostrophes and common misspellings, spelled out before any cue is matched (curly
 * apostrophes and "dont" hid half the correction cues in the paper's first week, §7.1 finding 7).
 * Each entry is `typed:meant`.
 */
export const PHONE_TYPING: Readonly<Record<string, string>> = Object.fromEntries(
  `
  dont:don't doesnt:doesn't didnt:didn't isnt:isn't arent:aren't wasnt:wasn't werent:weren't
  havent:haven't hasnt:hasn't hadnt:hadn't wont:won't wouldnt:wouldn't shouldnt:shouldn't
  couldnt:couldn't cant:can't aint:ain't thats:that's whats:what's theres:there's youre:you're
  youve:you've youll:you'll ive:i've im:i'm u:you ur:your pls:please plz:please thx:thanks
  alredy:already aleady:already allready:already alrady:already alreay:already teh:the htey:they
`
    .trim()
    .split(/\s+/)
    .map((entry) => entry.split(':')),
);

export { APPROVE, DECLINE, NEEDS_PERSON } from './answers.ts';
export {
  BARE_FIX,
  CLAIMED_SUCCESS,
  CONCESSION,
  CONVENTION,
  CORRECTION_ANYWHERE,
  CORRECTION_OPENING,
  ERROR_OUTPUT,
  FORBIDDING,
  INTERRUPTION,
  NOT_CORRECTION,
  REDIRECT,
  STANDING,
  STILL_BROKEN,
  WHOLE_SCOPE,
} from './correction.ts';
export {
  ENVIRONMENT,
  HARNESS_FRAMING,
  MISSING_TOOL,
  POWERSHELL_ALIASES,
  PROBE,
  PROBE_ANSWER,
  PROJECT_LOCAL,
  SHELL_WRAPPER,
} from './failure.ts';
export { CLARIFYING, HANDBACK, NOT_HANDBACK, WAITING } from './handback.ts';
export { NOT_SURPRISE, STATED_SURPRISE } from './surprise.ts';
