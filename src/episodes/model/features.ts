/**
 * The features the learned correction detector reads of a person's message and of the agent's turn before it,
 * hashed into a fixed number of dimensions. General, not cited: character trigrams (they carry across languages
 * and scripts), the message's words and word pairs, its opening words, its shape (a question, a pasted log, code,
 * its length), the words the agent's turn ended on, how that turn handed back, which concepts of a small
 * cross-lingual lexicon of correcting words it holds (one feature per concept, whatever the language), and which
 * rule of the hand-written set fired, read as one more feature rather than as a verdict.
 */

import { isAscii, testTwinned, twinned } from './ascii.ts';
import { lexicon, NEGATIVE } from './lexicon.ts';

/** One hashed feature: its dimension and value. */
export interface Feature {
  index: number;
  value: number;
}

/**
 * What the detector reads: at most this much of the opening of the message, and of the end of the agent's turn (its
 * patterns read all of it, its words the first `MAX_WORDS` of it). A correction says what is wrong at its start;
 * what follows is most often a pasted log or a new request. Over fold seeds 1-8, nested out-of-fold, reading 200
 * and 800 characters rather than 400 and 400 took the detector from P 0.82 R 0.38 to P 0.83 R 0.40 on all rows, and
 * on the second batch from P 0.72 R 0.29 to 0.84/0.31 (neighbours 160-240 and 600-1,000 land within 0.01 of it).
 */
export const SAID_CHARS = 200;
export const BEFORE_CHARS = 800;
const MAX_WORDS = 80;

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over UTF-16 code units, continued from `h`. */
export function fnv(text: string, h = FNV_OFFSET): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** A feature's dimension: FNV-1a of its name, into `dims` (a power of two). */
export function hash(text: string, dims: number): number {
  return (fnv(text) >>> 0) & (dims - 1);
}

/**
 * A named feature's visit: its hashed dimension and value, and its name told to whoever asks (the bench names
 * what carries weight). Trigrams are visited without a name.
 */
export function namedFeature(
  dims: number,
  visit: (index: number, value: number) => void,
  named?: (name: string) => void,
): (name: string, value?: number) => void {
  return (name, value = 1) => {
    visit(hash(name, dims), value);
    named?.(name);
  };
}

/** Prefixes hashed once: each feature of the kind continues from here, with no string built for it. */
const MESSAGE_SEEDS = /* @__PURE__ */ seedsOf('');
const AGENT_SEED = /* @__PURE__ */ fnv('a:');

/** Lower-cased, each run of whitespace one space. */
export function flat(text: string): string {
  // Without the u flag: \s reads the same characters either way, and matches no half of a surrogate pair.
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

const WORDS = /* @__PURE__ */ twinned(() => /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu);
const LOG_LINE = /* @__PURE__ */ twinned(
  () =>
    /(?:error|exception|traceback|failed|fatal|panic|warning|undefined|cannot|not found|\bat\s+\S+:\d+|line \d+|exit code)/iu,
);

/** The agent said it was done, that something now works, or to try it (twelve languages; the model weighs it). */
const CLAIM = /* @__PURE__ */ twinned(
  () =>
    /\b(?:fixed|done|resolved|should (?:now )?work|now works|works now|is working|implemented|updated|completed|all (?:tests )?pass(?:es|ing)?|successfully|ready|try it (?:now|again)|(?:is|are) now (?:working|fixed|correct)|should be (?:fixed|resolved|working|gone))\b|✅|🎉|listo|corregido|solucionado|funciona|debería funcionar|修正|完了|hecho|fertig|behoben|sollte (?:jetzt )?funktionieren|terminé|corrigé|résolu|devrait (?:fonctionner|marcher)|deve funcionar|corrigido|resolvido|dovrebbe funzionare|corretto|risolto|должно работать|исправлен|работает|powinno działać|naprawion|çalışmalı|düzeltildi|çözüldü|应该可以|已修复|已解决|修复了|直しました|動作するはず|解決しました|수정했|해결했|작동할/iu,
);
/**
 * The agent handed its work over as finished or to be tried: "should now show", "try it now", "let me know", a
 * ✅ or 🎉 (a few languages). Broader than `CLAIM`: what a person reports back on.
 */
const HANDED_OVER = /* @__PURE__ */ twinned(
  () =>
    /\b(?:fixed|done|resolved|should (?:now )?(?:work|be|show|display|load|appear|run|pass)|now (?:works?|shows?|displays?|loads?|runs?|has|uses|handles|properly|correctly|supports)|works now|is working|implemented|updated|completed|all (?:tests )?pass|successfully|ready|try it (?:now|again)|(?:please )?(?:test|try|refresh|restart|reload|run)(?: it| this| the \w+)? (?:now|again)|let me know)\b|✅|🎉|🚀|listo|corregido|funciona|修正|完了|しました|hecho|fertig|behoben|terminé|corrigé|已修复|已经|现在|应该|修复|düzelt|eklendi|tamamlan|готово|исправ|теперь|agora|corrigido/iu,
);
/**
 * The message reports that something fails, is still wrong, or does nothing (a few languages): after the agent
 * handed its work over, the most common correction there is.
 */
const FAILURE = /* @__PURE__ */ twinned(
  () =>
    /\b(?:still|again|broken|broke|wrong|fail(?:s|ed|ing)?|crash(?:es|ed)?|errors?|issues?|problem|bug|no change|unchanged|impossible|non[- ]?existent|undefined|missing|gone|disappeared|empty|blank|stuck|freez\w*|loop\w*|worse|same (?:error|issue|problem|thing|result|behaviou?r)|not (?:work|working|fixed|the case|showing|shown|displayed|updated|changed|loading|happening)|nothing (?:happen|change|works|is|shows|seems)|(?:does|did|is|was|are|wo|ca)(?:n'?t| not) (?:work|seem|show|load|change|fix|display|appear|help|do|get|find|see|run|start|open)|(?:dont|doesnt|didnt|isnt|arent|wasnt|wont|cant|never) \w+)\b|还是|仍然|依然|没有|不行|报错|错误|问题|不对|まだ|エラー|できない|されない|動かない|直って|hata|çalışmıyor|olmadı|hâlâ|hala|не работает|ошибк|всё ещё|до сих пор|no funciona|sigue|não funciona|ainda|funktioniert nicht|immer noch|ne marche pas|ne fonctionne|toujours/iu,
);
/** The message says something is wrong, still, again, or not so (a few languages; the model weighs it). */
const DENIAL = /* @__PURE__ */ twinned(
  () =>
    /\b(?:no|not|don'?t|doesn'?t|didn'?t|isn'?t|wasn'?t|won'?t|can'?t|never|still|again|wrong|instead|stop|why did|why are|same (?:error|issue|problem)|broken|nope)\b|sigue|todavía|otra vez|noch|immer noch|encore|toujours|まだ|違う|还是|不对|hala|yine/iu,
);

/**
 * The message opens by approving what the agent did ("nice", "that fixed it", "works now", "looks good"): what
 * follows is then most often the next request, not a correction (a few languages).
 */
const PRAISE = /* @__PURE__ */ twinned(
  () =>
    /^\W{0,3}(?:ok(?:ay)?|alright\w*|great|nice|good|perfect|awesome|excellent|cool|thanks?|thank you|yes|yep|yeah|wow|amazing|very good|looks (?:good|great)|lgtm|(?:that|this|it) (?:fixed|solved|worked|works|did it)|(?:it|that|everything)(?:'s| is)? (?:works?|working|runs?|fine)|works|now (?:it )?works|genial|perfecto|gracias|parfait|merci|super|prima|danke|отлично|спасибо|好的|完美|谢谢|可以了)\b/iu,
);
/** The agent asked the person to try, run or report something back ("let me know what you see", "share the output"). */
const ASKED_REPORT = /* @__PURE__ */ twinned(
  () =>
    /\b(?:let me know|share|paste|send me|tell me|what (?:do )?you see|check the (?:console|output|logs?)|test (?:it|this|again)|try (?:it|this|again)|run (?:it|this|the))\b[^.?!]{0,80}[.?!]?\s*\W*$/iu,
);
/** The message asks for new work: "I want …", "I'd like …", "can you add …", "let's …", "next". */
const REQUEST = /* @__PURE__ */ twinned(
  () =>
    /\b(?:i (?:want|would like|'d like|need) (?:to |you to |a |an |the )?|can you (?:add|make|create|implement|write|build|help|show|explain)|could you (?:add|make|create|implement|write|build|help|show|explain)|let'?s (?:add|go|move|proceed|start|now|discuss|implement|continue|work|do)|next (?:phase|step|task|feature)|new feature|(?:find|figure) out (?:why|what|how)|look into|investigate|track down|quiero que|necesito que|je veux|ich möchte)\b/iu,
);
/**
 * The message places a failure elsewhere than the agent's last change: since a merge or a date, on a branch, in CI
 * or production. A new report, not word that the agent's change did not work.
 */
const ELSEWHERE = /* @__PURE__ */ twinned(
  () =>
    /\b(?:since (?:the )?(?:last|yesterday|this (?:morning|week)|last week|\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|we|i)|on (?:main|master|staging|prod\w*)|in (?:ci|prod\w*|staging)|for (?:a few|some|several) (?:days|weeks))\b/iu,
);

/** The first `max` words of `text`: runs of letters and digits, with inner apostrophes, underscores and hyphens. */
export function words(text: string, max = MAX_WORDS, ascii = isAscii(text)): string[] {
  return (text.match(ascii ? WORDS.ascii : WORDS.pattern) ?? []).slice(0, max);
}

/** Where each kind of text feature starts hashing from: one set per text a detector reads. */
export interface TextSeeds {
  prefix: string;
  trigram: number;
  word: number;
  pair: number;
}

/** Seeds for the texts named `name` (the prefixes `name` + `c:`, `w:`, `b:`). */
export function seedsOf(name: string): TextSeeds {
  return { prefix: name, trigram: fnv(`${name}c:`), word: fnv(`${name}w:`), pair: fnv(`${name}b:`) };
}

/** How much each kind of a text's features weighs, and how many words are read. */
export interface TextWeights {
  trigrams: number;
  words: number;
  maxWords: number;
}

const EVEN: TextWeights = { trigrams: 1, words: 1, maxWords: MAX_WORDS };

/**
 * A flattened text's character trigrams (padded with a space each side) and its words and word pairs, each kind
 * scaled by one over the square root of its count times its weight, so that a long text does not outweigh a
 * short one. Returns the words.
 */
export function visitText(
  text: string,
  seeds: TextSeeds,
  dims: number,
  visit: (index: number, value: number) => void,
  weights: TextWeights = EVEN,
  /** Told each word and word pair's name (the bench names what carries weight); trigrams are not named. */
  named?: (name: string) => void,
): string[] {
  const mask = dims - 1;
  const padded = ` ${text} `;
  const gramWeight = weights.trigrams / Math.sqrt(Math.max(1, padded.length - 2));
  for (let i = 0; gramWeight > 0 && i + 3 <= padded.length; i++) {
    let h = seeds.trigram;
    for (let k = i; k < i + 3; k++) {
      h ^= padded.charCodeAt(k);
      h = Math.imul(h, 0x01000193);
    }
    visit((h >>> 0) & mask, gramWeight);
  }
  const list = words(text, weights.maxWords);
  const wordWeight = weights.words / Math.sqrt(Math.max(1, list.length));
  for (let i = 0; i < list.length; i++) {
    visit((fnv(list[i]!, seeds.word) >>> 0) & mask, wordWeight);
    if (i + 1 < list.length)
      visit((fnv(list[i + 1]!, fnv(' ', fnv(list[i]!, seeds.pair))) >>> 0) & mask, wordWeight);
    if (!named) continue;
    // FNV continues: the seed of `ew:` then a word hashes as the name `ew:word` does.
    named(`${seeds.prefix}w:${list[i]}`);
    if (i + 1 < list.length) named(`${seeds.prefix}b:${list[i]} ${list[i + 1]}`);
  }
  return list;
}

/** Each feature of a list as `visit` reads it, each dimension once (hashes that collide add up). */
export function collect(visitAll: (visit: (index: number, value: number) => void) => void): Feature[] {
  const values = new Map<number, number>();
  visitAll((index, value) => {
    values.set(index, (values.get(index) ?? 0) + value);
  });
  return [...values].map(([index, value]) => ({ index, value }));
}

/** A feature that carries the hand-written rules' verdict: `rule:…`, or a cross of it (`z:rule:…`). */
const RULE_FEATURE = /^(?:z:)?rule:/;

/**
 * The features as `collect` gives them, with the dimensions of those that carry the rules' verdict
 * (`RULE_FEATURE`): fitting may leave those out of a step (`FitOptions.dropout`), so that where the rules were
 * written from their rows, the model still learns from the words.
 */
export function collectRuled(
  dims: number,
  visitAll: (visit: (index: number, value: number) => void, named: (name: string) => void) => void,
): { features: Feature[]; droppable: Set<number> } {
  const droppable = new Set<number>();
  const features = collect((visit) =>
    visitAll(visit, (name) => {
      if (RULE_FEATURE.test(name)) droppable.add(hash(name, dims));
    }),
  );
  return { features, droppable };
}

/** The hand-back kinds and rule names the caller found, given as context: the features stay free of detect.ts. */
export interface Context {
  /** How the agent's turn before handed back ('offer', 'waiting', 'question') or null. */
  handback: string | null;
  /** The hand-written rule that fired on the message, or null. */
  rule: string | null;
  /**
   * The message came right after another of the person's own, with no words of the agent between (it worked
   * silently, or the transcript kept none): the agent's words read are those the earlier message answered.
   */
  followsMessage?: boolean;
}

/**
 * Each feature in turn, as a dimension and a value, with nothing collected: scoring is a sum over them, so
 * ingest scores a message without building a list or a map for it.
 */
export function visitFeatures(
  said: string,
  before: string,
  context: Context,
  dims: number,
  visit: (index: number, value: number) => void,
  /** Told each feature's name but the character trigrams' (the bench names what carries weight; fitting, what the rules decided). */
  named?: (name: string) => void,
): void {
  const add = namedFeature(dims, visit, named);
  const message = flat(said.slice(0, SAID_CHARS * 2)).slice(0, SAID_CHARS);
  // Each text is read whole by several patterns: whether it is ASCII is asked once (see `ascii.ts`).
  const messageAscii = isAscii(message);
  const said_ = visitText(message, MESSAGE_SEEDS, dims, visit, undefined, named);
  const mask = dims - 1;
  add(`f1:${said_[0] ?? ''}`, 1);
  add(`f2:${said_.slice(0, 2).join(' ')}`, 1);
  const closing = before.slice(-BEFORE_CHARS * 2);
  const closingAscii = isAscii(closing);
  const agentText = flat(closing).slice(-BEFORE_CHARS);
  // Lower-casing ASCII leaves it ASCII.
  const agent = words(agentText, MAX_WORDS, closingAscii || isAscii(agentText));
  const agentWeight = 0.5 / Math.sqrt(Math.max(1, agent.length));
  for (const word of agent) visit((fnv(word, AGENT_SEED) >>> 0) & mask, agentWeight);
  add(`a-last:${agent.slice(-2).join(' ')}`, 0.5);
  add(agent.length === 0 ? 'no-agent' : 'agent', 1);
  const handback = context.followsMessage ? 'follows' : (context.handback ?? 'none');
  add(`hb:${handback}`, 1);
  add(`rule:${context.rule ?? 'none'}`, 1);
  // What the message does to what the agent just claimed or asked: the crosses carry what the words alone do not.
  const claimed = testTwinned(CLAIM, closing, closingAscii);
  const denies = testTwinned(DENIAL, message, messageAscii);
  const question = said.includes('?');
  const state = `${claimed ? 'claimed' : 'no-claim'}/${handback}`;
  add(`x:${state}`, 1);
  add(`x:${state}/f1:${said_[0] ?? ''}`, 1);
  add(`x:${state}/denies:${denies}`, 1);
  add(`x:${state}/question:${question}`, 1);
  add(`x:denies:${denies}/len:${Math.min(6, Math.floor(Math.log2(said.length + 1)) >> 1)}`, 1);
  add(`len:${Math.min(12, Math.floor(Math.log2(said.length + 1)))}`, 1);
  if (question) add('question', 1);
  if (said.includes('!')) add('exclaim', 1);
  if (/```|`[^`\n]+`/u.test(said)) add('code', 1);
  // The first 40 lines, without splitting the rest of a long paste.
  const lines = said.split('\n', 40);
  let logLines = 0;
  for (const line of lines) if (testTwinned(LOG_LINE, line, isAscii(line))) logLines++;
  const logShare = logLines / lines.length;
  add(`log:${Math.round(logShare * 4)}`, 1);
  if (lines.length > 3) add('multiline', 1);
  // After the agent handed its work over, a reported failure or a pasted log is what corrects it.
  const handed =
    agent.length === 0 ? 'none' : testTwinned(HANDED_OVER, closing, closingAscii) ? 'handed' : 'kept';
  const fails = testTwinned(FAILURE, message, messageAscii);
  const pasted = logShare > 0.2 || said.includes('```');
  add(`y:${handed}`, 1);
  add(`y:fails:${fails}`, 1);
  add(`y:${handed}/fails:${fails}`, 1);
  add(`y:${handed}/pasted:${pasted}`, 1);
  add(`y:${handed}/fails:${fails}/short:${said.length < 200}`, 1);
  // Praise first, a new request, or a report the agent asked for: what looks like a complaint often is not one.
  const praise = testTwinned(PRAISE, message, messageAscii);
  const request = testTwinned(REQUEST, message, messageAscii);
  const recent = before.slice(-BEFORE_CHARS);
  const asked = agent.length > 0 && testTwinned(ASKED_REPORT, recent, closingAscii || isAscii(recent));
  // Part of an ASCII message is ASCII.
  const early = testTwinned(FAILURE, message.slice(0, 80), messageAscii || isAscii(message.slice(0, 80)));
  add(`z:praise:${praise}/fails:${fails}`, 1);
  add(`z:request:${request}/${handed}/fails:${fails}`, 1);
  add(`z:asked:${asked}/fails:${fails}/pasted:${pasted}`, 1);
  add(`z:early-fail:${early}/${handed}`, 1);
  add(`z:elsewhere:${testTwinned(ELSEWHERE, message, messageAscii)}/${handed}/fails:${fails}`, 1);
  add(`z:rule:${context.rule ?? 'none'}/len:${said.length < 300}/question:${question}`, 1);
  // The correcting concepts of the lexicon, in any of its languages: how many the message holds after the agent
  // handed its work over, and whether one denies or reports a failure right after the agent said its change works.
  // Nested out-of-fold, they carry what English rows teach to the other languages (recall there 0.31 → 0.46).
  const concepts = lexicon(message, messageAscii);
  add(`lex:n:${Math.min(3, concepts.length)}/${handed}`, 1);
  const negative = denies || concepts.some((concept) => NEGATIVE.has(concept));
  add(`succ:${claimed}`, 1);
  add(`succ:${claimed}/neg:${negative}`, 1);
  // A "no" or "don't" that answers the agent's question is an answer, not a correction; after a claim it worked, it
  // most often says it did not.
  const agentAsked = /\?\W*$/u.test(recent.trim());
  add(`ask:${agentAsked}/neg:${negative}/succ:${claimed}`, 1);
}
