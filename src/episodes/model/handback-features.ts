/**
 * The features the learned offer detector reads of the closing of an agent's reply, hashed as the correction
 * detector's are (`features.ts`): the last few hundred characters' trigrams, words and word pairs; the last
 * sentence's words and its shape (a question, its first words); kinds of phrasing that offer work the agent could
 * do ("want me to", "shall I", "I can … if you like"), that wait on what only the person has ("paste your key",
 * "once you have", "let me know if it works"), that tell the person to act ("please run"), or that show the
 * agent still acting ("let me …"); and what the hand-written rules made of the closing, read as one more feature
 * rather than as a verdict.
 */
import { flat, namedFeature, seedsOf, visitText, words } from './features.ts';

/** What the detector reads: the last this many characters of the reply, code left out. */
export const CLOSING_CHARS = 400;

const CLOSING_SEEDS = /* @__PURE__ */ seedsOf('h');
const LAST_SEEDS = /* @__PURE__ */ seedsOf('s');
/** Trigrams at a third: at full weight they tell one repository's style from another's more than offer from wait. */
const CLOSING_TEXT = { trigrams: 0.3, words: 1, maxWords: 100 };
const LAST_TEXT = { trigrams: 0, words: 1, maxWords: 40 };

/**
 * The rules were written from the first batch, so there their verdict is nearly always right, and at full weight
 * the model copies it. Out-of-fold, vetting the rules' offers: at 0.25, P 0.86 R 0.70 with 3 of 39 waiting
 * replies reminded; at 0.5, P 0.89 R 0.70 with 2 of 39.
 */
const RULE_WEIGHT = 0.5;

/** Phrasings the model weighs, each named by its key (a few languages). */
const PHRASES: readonly (readonly [string, RegExp])[] = [
  [
    'ask-to-do',
    /\b(?:(?:would|do) you (?:like|want) (?:me )?to|want me to|shall i|should i|would you like (?:me|a|an|the)|do you want (?:a|an|the))\b/,
  ],
  [
    'proceed',
    /\b(?:ready to proceed|should i (?:proceed|continue|go ahead|start)|shall (?:i|we)|proceed\?|go ahead\?)/,
  ],
  ['want-to', /\b(?:want|like) to \w+[^.?!]{0,80}\?/],
  [
    'add-to-chat',
    /\badd (?:[\w./\\-]+ ){0,6}(?:to|in(?:to)?) (?:the|this) chat\b|\bshare the (?:actual )?(?:file|contents?)\b|\bi need (?:to see|the|you)\b/,
  ],
  ['other-please', /por favor|mohon|пожалуйста|s'il vous plaît|bitte|proszę|请/],
  [
    'if-you-want',
    /\bif you(?:'d| would)? (?:want|like|wish|prefer)\b|\blet me know if you(?:'d| would)? (?:want|like)/,
  ],
  ['let-me-know-if', /\blet me know if\b/],
  ['let-me-know-when', /\b(?:let me know|tell me) (?:once|when|whether|what|how)\b/],
  ['i-can', /\bi (?:can|could|'ll|will|'d be happy to|am happy to)\b/],
  ['next-steps', /\bnext steps?\b|\b(?:the )?(?:only|last|final|remaining) step\b/],
  [
    'please-do',
    /\bplease (?:provide|share|send|paste|upload|attach|run|try|test|check|confirm|restart|verify|review|open|let)\b/,
  ],
  [
    'you-run',
    /\b(?:you(?:'ll| will)? need to|you should|you can|make sure to|be sure to|try) (?:run|install|restart|execute|open|test|check|add|set)\b/,
  ],
  ['credential', /\b(?:api[ -]?key|token|password|secret|credentials?|login|sign in|log in|account)\b/],
  ['once-you', /\bonce (?:you|that|it's|this)\b|\bwhen you(?:'re| are| have)?\b/],
  [
    'did-it-work',
    /\b(?:does|did|is) (?:it|that|this|everything) (?:\w+ )?(?:work|look|render|show|fix|resolve)|\bhow does it look\b/,
  ],
  [
    'can-you',
    /\b(?:can|could) you (?:check|confirm|verify|test|try|look|see|open|share|send|provide|paste|run|tell)\b/,
  ],
  [
    'your-side',
    /\byour (?:screen|browser|device|phone|dashboard|console|terminal|machine|account|review|decision|choice)\b/,
  ],
  [
    'still-acting',
    /(?:^|[.!?:] )(?:let me (?!know)\w+|let's \w+|now (?:let me|i'll))|\bi'm (?:now )?\w+ing\b/,
  ],
  [
    'pleasantry',
    /\banything else\b|\bfeel free to\b|\bhappy to help\b|\blet me know if you (?:need|have) (?:anything|any|more|further|other)\b/,
  ],
  [
    'done',
    /\b(?:fixed|done|resolved|implemented|updated|completed|successfully|now works|should (?:now )?work)\b|✅/,
  ],
  ['or', /\bor\b[^.?!]{1,80}\?/],
  ['cjk-offer', /需要我|要不要我|要我|我可以|如果(?:你|您)(?:愿意|需要|想)|しましょうか|しますか/],
  ['cjk-wait', /告诉我|发给我|贴给我|等(?:你|您)|请(?:提供|发送|确认)|教えて/],
  ['other-offer', /хотите|могу|souhaitez|voulez|je peux|desea|quieres|te gustaría|se vuoi|vuoi che|chcesz/],
];

/** What the hand-written rules made of the closing, given by the caller: the features stay free of detect.ts. */
export interface HandbackContext {
  /** 'offer', 'waiting' or 'question' as the rules read it, or null when they found no hand-back. */
  kind: string | null;
  /** The rule set that decided, or null. */
  rule: string | null;
}

const FENCE = /^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm;

/** The last sentence of a flattened closing: after the last stop that is followed by more. */
function lastSentence(text: string): string {
  const parts = text.split(/(?<=[.!?。？！])\s+|\n+/u).filter((part) => words(part).length > 0);
  return parts.at(-1) ?? '';
}

/** Each feature of a reply's closing in turn, as a dimension and a value, with nothing collected. */
export function visitHandbackFeatures(
  replyTail: string,
  context: HandbackContext,
  dims: number,
  visit: (index: number, value: number) => void,
  /** Told each feature's name but the trigrams' (the bench names what carries weight). */
  named?: (name: string) => void,
): void {
  const add = namedFeature(dims, visit, named);
  const raw = replyTail
    .slice(-CLOSING_CHARS * 4)
    .replace(FENCE, ' ')
    .replace(/[’‘]/g, "'");
  const closing = flat(raw).slice(-CLOSING_CHARS);
  visitText(closing, CLOSING_SEEDS, dims, visit, CLOSING_TEXT, named);
  const last = lastSentence(
    raw
      .trim()
      .toLowerCase()
      .replace(/[ \t]+/g, ' '),
  );
  const lastWords = visitText(flat(last), LAST_SEEDS, dims, visit, LAST_TEXT, named);
  add(`l1:${lastWords[0] ?? ''}`);
  add(`l2:${lastWords.slice(0, 2).join(' ')}`);
  add(`l3:${lastWords.slice(0, 3).join(' ')}`);
  const asks = /[?？]\s*$/u.test(last);
  if (asks) add('last:question');
  if (closing.includes('?') || closing.includes('？')) add('question');
  add(`questions:${Math.min(3, (closing.match(/[?？]/gu) ?? []).length)}`);
  if (/```|~~~/.test(replyTail.slice(-CLOSING_CHARS * 2))) add('code');
  // A reply that ends on a command hands the person what the agent could have run.
  const fenceEnd = /(?:```|~~~)[ \t]*(\w*)[^\n]*\n[\s\S]*?(?:```|~~~)\s*$/.exec(
    replyTail.slice(-CLOSING_CHARS * 4),
  );
  if (fenceEnd) {
    add('ends:code');
    add(
      `ends:code/${/^(?:bash|sh|shell|zsh|powershell|ps1|cmd|console)$/i.test(fenceEnd[1] ?? '') ? 'shell' : 'other'}`,
    );
  }
  if (/^\s*(?:\d+\.|[-*•])\s/m.test(raw.slice(-CLOSING_CHARS))) add('list');
  for (const [name, pattern] of PHRASES) {
    if (pattern.test(closing)) add(`ph:${name}`);
    if (pattern.test(last)) {
      add(`last:${name}`);
      add(`last:${name}/question:${asks}`);
    }
  }
  add(`rule:${context.kind ?? 'none'}`, RULE_WEIGHT);
  add(`rule:${context.kind ?? 'none'}/${context.rule ?? 'none'}`, RULE_WEIGHT);
  add(`rule:${context.kind ?? 'none'}/question:${asks}`, RULE_WEIGHT);
}
