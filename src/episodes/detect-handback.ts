/**
 * The detectors a hook runs: does an agent's closing hand work back to the person, and does the person's message
 * say only they have what is needed. Apart from the other detectors, so a hook loads only these rule sets.
 */
import type { HandbackKind } from '../core/index.ts';
import { CLARIFYING, HANDBACK, NEEDS_PERSON, NOT_HANDBACK, WAITING } from './cues/index.ts';
import {
  type CueHit,
  type CueList,
  compile,
  firstHit,
  lazily,
  mayMatch,
  nextMatch,
  normalizeLines,
  normalizeText,
  stripCode,
} from './match.ts';
import { offerProbability, offerThreshold } from './model/handback.ts';

/** The closing's cues by what they make of the reply; `null` means "hands nothing back". */
const closing = lazily({
  cues: (): ReadonlyArray<{ kind: HandbackKind | null; cues: CueList }> => [
    { kind: 'offer', cues: compile(HANDBACK) },
    { kind: 'question', cues: compile(CLARIFYING) },
    { kind: 'waiting', cues: compile(WAITING) },
    { kind: null, cues: compile(NOT_HANDBACK) },
  ],
});

/** How much of a reply's closing the hand-back rule reads (paper, Appendix A). */
export const HANDBACK_CHARS = 1500;

/**
 * Does the reply's closing offer work the agent could do itself, so that a reminder is worth its interruption?
 * The rules must read an offer, and the learned offer detector (`model/handback.ts`) must agree: it vets the
 * rules' offers, and turns away most closings that wait for what only the person has.
 */
export function offersWork(replyTail: string): boolean {
  const found = classifyHandback(replyTail);
  if (found?.kind !== 'offer') return false;
  const context = { kind: found.kind, rule: found.hit.rule };
  return offerProbability(replyTail.slice(-HANDBACK_CHARS), context) >= offerThreshold();
}

const needsPersonCues = lazily({ list: () => compile(NEEDS_PERSON) });

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
  const closingChars = replyTail.slice(-HANDBACK_CHARS);
  const text = normalizeLines(stripCode(closingChars));
  type Found = { at: number; rank: number; kind: HandbackKind | null; hit: CueHit };
  let last: Found | null = null;
  let waiting: Found | null = null;
  for (const [rank, { kind, cues: list }] of closing.cues.entries()) {
    if (!mayMatch(list, text)) continue;
    for (const cue of list.cues) {
      for (let m = nextMatch(cue, text, 0); m; m = nextMatch(cue, text, m.index + 1)) {
        const found = { at: m.index, rank, kind, hit: { rule: cue.rule, cue: cue.cue } };
        // Later wins; at the same place, the later set (waiting over offer, "nothing" over all) wins.
        if (!last || m.index > last.at || (m.index === last.at && rank > last.rank)) last = found;
        if (kind === 'waiting' && (!waiting || m.index > waiting.at)) waiting = found;
      }
    }
  }
  if (!last && endsOnShellBlock(closingChars)) return { kind: 'offer', hit: SHELL_BLOCK_HIT };
  // An offer in the sentence of a wait, or in the one after it, hinges on what the person must do first ("add the
  // file to the chat. Let me know if you want me to apply it then"): the closing waits.
  if (
    last?.kind === 'offer' &&
    waiting &&
    (text.slice(waiting.at, last.at).match(/[.!?]\s+|\n+/g)?.length ?? 0) <= 1
  )
    last = waiting;
  return last?.kind ? { kind: last.kind, hit: last.hit } : null;
}

/**
 * A closing that ends on a block of shell commands, with no cue in its prose, leaves the person to run what the agent
 * could have run: an offer, as "run these commands" would be. Read only when no cue decides, since prose such as
 * "send me what it prints" says what the block is for; and within the closing characters the cues read, so that a
 * hook never splits a whole long reply.
 */
function endsOnShellBlock(reply: string): boolean {
  const lines = reply.trimEnd().split('\n');
  const fence = /^ {0,3}(?:```|~~~)/;
  if (lines.length < 3 || !fence.test(lines.at(-1)!) || lines.at(-1)!.trim().length > 3) return false;
  for (let i = lines.length - 2; i >= 0; i--) if (fence.test(lines[i]!)) return SHELL_FENCE.test(lines[i]!);
  return false;
}

const SHELL_FENCE = /^ {0,3}(?:```|~~~)(?:bash|sh|shell|zsh|console|cmd|bat|powershell|ps1|pwsh)\s*$/i;
const SHELL_BLOCK_HIT: CueHit = { rule: 'HANDBACK', cue: 'a closing block of shell commands' };

/** Does the person's message say only they have what is needed (a credential, their decision, a review, "wait until")? */
export function needsPerson(said: string): boolean {
  return firstHit(needsPersonCues.list, normalizeText(said)) !== null;
}
