/**
 * The features the learned surprise detector reads of one paragraph of an agent's reply, hashed as the
 * correction detector's are (`features.ts`): its character trigrams, words and word pairs, its opening words,
 * its shape (a question, code, a list, its length), and kinds of phrasing that state or merely resemble a
 * surprise: first-person contrast ("I thought … but"), "turns out", "actually", "I see", "instead", "wasn't",
 * a negation after an expectation, an apology, "you're right", a hypothetical, a plan ("let me"). The
 * hand-written rules' verdict is one more feature.
 */
import { flat, namedFeature, seedsOf, visitText } from './features.ts';

/** What the detector reads of a paragraph. */
export const PARAGRAPH_CHARS = 800;

const SEEDS = /* @__PURE__ */ seedsOf('p');
const TEXT = { trigrams: 1, words: 1, maxWords: 120 };

/** Phrasings the model weighs, each named by its key (a few languages). */
const PHRASES: readonly (readonly [string, RegExp])[] = [
  [
    'contrast',
    /\bi (?:thought|assumed|expected|believed|was expecting)\b[^.!?\n]{0,120}\b(?:but|however|instead|actually)\b/,
  ],
  [
    'first-person-wrong',
    /\bi (?:was|am) (?:wrong|mistaken|incorrect)|\bi (?:made|introduced) (?:a|an|the) |\bmy (?:mistake|bad|error|apologies)\b|\bi (?:misread|misunderstood|overlooked|missed|forgot)\b/,
  ],
  ['turns-out', /\bturn(?:s|ed) out\b/],
  ['actually', /\bactually\b/],
  ['i-see', /\bi see\b/],
  ['instead', /\binstead\b/],
  ['was-not', /\b(?:was|were|is|are|did|does|do)(?:n't| not)\b/],
  [
    'expectation-negated',
    /\b(?:expected|should(?: have)?|supposed to|meant to|assumed)\b[^.!?\n]{0,80}\b(?:not|n't|but|never|instead)\b|\b(?:not|n't) (?:as )?expected\b/,
  ],
  ['apology', /\b(?:sorry|apologi[sz]e|apologies)\b/],
  ['you-right', /\byou(?:'re| are) (?:absolutely |quite |completely )?(?:right|correct)\b/],
  [
    'hypothetical',
    /\b(?:if|whether|in case|might|may|could)\b[^.!?\n]{0,40}\b(?:turns? out|fails?|does ?n't work|unexpected)/,
  ],
  ['plan', /\blet me\b|\blet's\b|\bi'll\b|\bi will\b|\bnow i\b/],
  ['diagnosis', /\b(?:the|found the) (?:issue|problem|bug|cause) (?:is|was)\b|\broot cause\b/],
  ['real-cause', /\bthe (?:real|actual|true) (?:problem|issue|cause|culprit|reason)\b/],
  [
    'previous',
    /\b(?:my|the) (?:previous|earlier|last|original) (?:fix|edit|change|attempt|approach|answer|assumption|diagnosis)\b/,
  ],
  ['strange', /\b(?:strange|odd|weird|unexpected(?:ly)?|surpris\w*|interesting|puzzling|curious)\b/],
  ['wait', /\b(?:wait|hmm|hm|oh|ah|oops|whoops|aha)\b/],
  ['didnt-work', /\b(?:did ?n't|did not|does ?n't|does not|still) (?:work|fix|help|resolve|change)/],
  [
    'self-error',
    /\b(?:mistakenly|wrongly|incorrectly|mixed up|dropped the ball|overcorrect\w*|missed|overlooked|wrong (?:directory|file|path|place|one))\b/,
  ],
  ['already', /\b(?:already|still)\b/],
  [
    'observation-not',
    /\b(?:there's|there is|it's|it is) no\b|\bnot (?:there|defined|found|what)\b|\bno longer\b/,
  ],
  ['now-see', /\bnow i (?:see|understand|realize)|\bi (?:now )?reali[sz]e|\bthat explains\b/],
  ['quoted-error', /error:|exception|traceback|`[^`]*(?:error|unexpected)[^`]*`/],
  ['cjk-contrast', /原来|实际上|其实|看来|没想到|奇怪|抱歉|搞错|弄错/],
  [
    'other-contrast',
    /на самом деле|оказалось|ошиб|en fait|je me suis|en realidad|de hecho|me equivoqu|aslında|özür|gözden kaçır/,
  ],
  ['cjk-admit', /误解|我现在理解|确实存在问题|我发现|我之前/],
];

/** The hand-written rules' verdict on the paragraph, given by the caller: the features stay free of detect.ts. */
export interface SurpriseContext {
  /** The rule that called it a surprise, or null. */
  rule: string | null;
  /** A rule that called it not a surprise fired. */
  ruledOut: boolean;
}

/** Each feature of a paragraph in turn, as a dimension and a value, with nothing collected. */
export function visitSurpriseFeatures(
  paragraph: string,
  context: SurpriseContext,
  dims: number,
  visit: (index: number, value: number) => void,
  /** Told each feature's name but the trigrams' (the bench names what carries weight). */
  named?: (name: string) => void,
): void {
  const add = namedFeature(dims, visit, named);
  const text = flat(paragraph.slice(0, PARAGRAPH_CHARS).replace(/[’‘]/g, "'"));
  const said = visitText(text, SEEDS, dims, visit, TEXT, named);
  add(`f1:${said[0] ?? ''}`);
  add(`f2:${said.slice(0, 2).join(' ')}`);
  add(`len:${Math.min(10, Math.floor(Math.log2(paragraph.length + 1)))}`);
  if (paragraph.includes('?')) add('question');
  if (paragraph.includes('!')) add('exclaim');
  if (/```|`[^`\n]+`/u.test(paragraph)) add('code');
  if (/^\s*(?:\d+\.|[-*•])\s/m.test(paragraph)) add('list');
  if (/^#+\s|^\*\*[^*]+\*\*:?\s*$/m.test(paragraph)) add('heading');
  let phrases = 0;
  for (const [name, pattern] of PHRASES) {
    if (!pattern.test(text)) continue;
    phrases++;
    add(`ph:${name}`);
  }
  add(`phrases:${Math.min(4, phrases)}`);
  add(`rule:${context.rule ?? 'none'}`);
  if (context.ruledOut) add('rule:ruled-out');
}
