import { visibleReply } from '../core/index.ts';
import { classifyHandback, HANDBACK_CHARS, needsPerson } from '../episodes/index.ts';

/**
 * How a reply hands the next step back: the hooks' three acts (an offer, a wait on the person, a clarifying
 * question), or by the two rules the experiments add: it ends on a question, or it tells the person to do
 * something.
 */
export type HandbackAct = 'offer' | 'waiting' | 'question' | 'asks' | 'instructs';

export interface ReplyReading {
  handback: boolean;
  act: HandbackAct | null;
}

/** The closing the experiments read (paper, Appendix A); the hooks read 1,500 characters. */
export const CLOSING_CHARS = 400;

/** Code left out: fenced blocks (a closing cut inside one starts with its end) and inline spans. */
function withoutCode(text: string): string {
  const fences = text.match(/^ {0,3}(?:```|~~~)/gm)?.length ?? 0;
  const rest = fences % 2 === 1 ? text.replace(/^[\s\S]*?^ {0,3}(?:```|~~~)[^\n]*$/m, '') : text;
  return rest
    .replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, ' ')
    .replace(/`[^`\n]*`/g, 'code')
    .trim();
}

/** The last paragraph of the closing, code left out. */
function lastParagraph(closing: string): string {
  const paragraphs = withoutCode(closing)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  return paragraphs[paragraphs.length - 1] ?? '';
}

/** A closing courtesy ("anything else?", "want me to explain more?") hands no work back. */
const COURTESY =
  /\b(?:anything (?:else|specific)|any (?:other |more |further )?questions|further (?:help|assistance|questions)|help with anything|ready to help|feel free|(?:make|want) any (?:\w+ )?(?:adjustments|changes|modifications)|explain (?:any|anything|more)|in more detail)\b/i;

/** A question mark, in any script's form. */
const QUESTION = /[?？]/;

/**
 * A line that tells the person to do something: it opens (after a list marker) with a verb in the imperative,
 * or with "you need to / you should / you can now / please".
 */
const INSTRUCTION =
  /^(?:[-*•]\s+|\d+[.)]\s+)?(?:please\s+)?(?:run|execute|install|open|paste|add|set|click|check|restart|deploy|merge|push|publish|review|confirm|try|update|create|copy|replace|go to|navigate|type|enter|provide|share|send|tell me|let me know|make sure|approve|sign|log in|login)\b|^(?:[-*•]\s+|\d+[.)]\s+)?(?:you(?:'ll| will)? need to|you should|you can now|you may want to|you(?:'ll)? have to)\b/im;

/**
 * Does the reply hand the next step back? The closing 400 characters are read by the hooks' rule
 * (`classifyHandback`), then by two more: the last paragraph asks a question (a courtesy such as "anything
 * else?" aside), or one of its lines tells the person to do something.
 */
export function readReply(reply: string): ReplyReading {
  const closing = visibleReply(reply).slice(-CLOSING_CHARS);
  const hooks = classifyHandback(closing);
  if (hooks) return { handback: true, act: hooks.kind };
  const last = lastParagraph(closing);
  if (QUESTION.test(last) && !COURTESY.test(last)) return { handback: true, act: 'asks' };
  if (INSTRUCTION.test(last)) return { handback: true, act: 'instructs' };
  return { handback: false, act: null };
}

/**
 * Would the Stop hook continue this turn with the reminder? By its own rule: the reply's closing offers
 * (not a wait or a question), and the person's message did not say only they have what is needed.
 */
export function reminderWouldFire(reply: string, prompt: string): boolean {
  return (
    classifyHandback(visibleReply(reply).slice(-HANDBACK_CHARS))?.kind === 'offer' && !needsPerson(prompt)
  );
}
