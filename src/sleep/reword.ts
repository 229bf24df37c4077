import {
  type ChatMessage,
  chat,
  collapseWhitespace,
  lessonHash,
  maskSecrets,
  normText,
  oneTry,
  type Params,
  visibleReply,
  type WordingConfig,
} from '../core/index.ts';
import {
  appendAudit,
  type Db,
  findLessonsByHash,
  getLesson,
  getTombstone,
  saveLesson,
} from '../store/index.ts';
import type { Night, NightEpisode, NightLesson } from './night.ts';
import type { WordingNote } from './report.ts';
import { acceptWording } from './wording.ts';

/** The sources shown to the model: the latest few, each cut, secrets masked. */
const SOURCES_SHOWN = 6;
const SOURCE_CHARS = 400;

const INSTRUCTIONS = [
  'You word one lesson in the memory of an AI coding agent. Below are surprises from its work sessions:',
  'tool calls that failed, or moments the agent said it had been wrong. They are the same surprise seen again.',
  'Describe, as an observation of what happened, what these surprises show.',
  'Use only what the surprises say: add no cause, fix, name, command, path or number they do not state.',
  'Write one or two plain sentences, under 300 characters, that say what happened or what is so.',
  'Never give an instruction or advice: do not open with always, never, do, don’t, use, make, avoid, ensure,',
  'or any other order. Answer with the sentence alone, with no quotation marks around it.',
].join(' ');

function clip(text: string): string {
  const flat = collapseWhitespace(maskSecrets(text));
  return flat.length <= SOURCE_CHARS ? flat : `${flat.slice(0, SOURCE_CHARS - 1).trimEnd()}…`;
}

/** One surprise as the model reads it: the same fields the deterministic wording quotes, masked. */
function describeSource(source: NightEpisode, n: number): string {
  const when = source.happenedAt.slice(0, 10);
  if (source.kind === 'error') {
    const call = String(source.detail['description'] || source.detail['input'] || '');
    return [
      `${n}. (${when}) The agent's ${source.tool ?? 'tool'} call failed.`,
      ...(call ? [`Call: "${clip(call)}".`] : []),
      ...(source.title && source.title !== source.text ? [`Title: "${clip(source.title)}".`] : []),
      `Failure: "${clip(source.text)}".`,
    ].join(' ');
  }
  return `${n}. (${when}) The agent said it had been wrong: "${clip(source.text)}".`;
}

/** What the model is sent for one lesson. Nothing here is unmasked: only the fields `describeSource` takes. */
export function wordingRequest(sources: readonly NightEpisode[]): ChatMessage[] {
  const shown = sources.slice(-SOURCES_SHOWN);
  return [
    { role: 'system', content: INSTRUCTIONS },
    {
      role: 'user',
      content: `Surprises:\n${shown.map((source, i) => describeSource(source, i + 1)).join('\n')}`,
    },
  ];
}

/** The answer as a lesson sentence: thinking dropped, one line, one pair of wrapping quotation marks taken off. */
function candidateOf(reply: string): string {
  let text = collapseWhitespace(visibleReply(reply));
  const wrapped = /^["“«](.*)["”»]$/u.exec(text);
  if (wrapped && !/["“”«»]/u.test(wrapped[1]!)) text = wrapped[1]!.trim();
  return maskSecrets(text);
}

const quotedSpans = /"([^"]+)"|“([^”]+)”|«([^»]+)»|`([^`]+)`/gu;

/** A quotation the sources do not hold would put words in someone's mouth. */
function unfoundQuote(candidate: string, sources: readonly NightEpisode[]): string | null {
  const said = normText(wordingRequest(sources)[1]!.content as string);
  for (const match of candidate.matchAll(quotedSpans)) {
    const span = match.slice(1).find((group) => group !== undefined) ?? '';
    if (!said.includes(normText(span))) return span;
  }
  return null;
}

/** Why the model's wording may not replace the lesson's, or null when it may. */
function refusalOf(candidate: string, fallback: string, sources: readonly NightEpisode[], params: Params) {
  const { refused } = acceptWording(candidate, fallback, params.wording.maxChars);
  if (refused) return refused;
  const quote = unfoundQuote(candidate, sources);
  return quote === null ? null : `text quotes "${quote}", which no surprise says`;
}

/** A lesson tonight made whose wording the model may give: error or surprise, this memory's own, still whole. */
function mayReword(night: Night, entry: NightLesson, mergedTonight: Set<number>): boolean {
  const { lesson } = entry;
  return (
    (lesson.kind === 'error' || lesson.kind === 'surprise') &&
    lesson.origin === 'self' &&
    lesson.mergedInto === null &&
    lesson.vetoedAt === null &&
    entry.sources.length > 0 &&
    !mergedTonight.has(lesson.id) &&
    night.report.learned.some((line) => line.id === lesson.id)
  );
}

/**
 * Writes the model's wording over the deterministic one, unless something changed the lesson while the model
 * was asked, or the new text is tombstoned or already another lesson's. Returns why not, or null.
 */
function replaceWording(
  db: Db,
  night: Night,
  entry: NightLesson,
  text: string,
  model: string,
): string | null {
  const before = entry.lesson;
  const hash = lessonHash(before.kind, text);
  return db.transaction((): string | null => {
    const stored = getLesson(db, before.id);
    if (!stored || stored.hash !== before.hash || stored.mergedInto !== null || stored.vetoedAt !== null) {
      return 'the lesson changed while the model was asked';
    }
    const tombstone = getTombstone(db, hash);
    if (tombstone) return `the wording is tombstoned (${tombstone.reason})`;
    if (findLessonsByHash(db, hash).some((other) => other.id !== before.id)) {
      return 'another lesson already has this wording';
    }
    const lesson = { ...stored, text, hash };
    saveLesson(db, lesson);
    appendAudit(db, {
      at: night.now,
      actor: 'sleep',
      action: 'reword',
      rules: night.rules,
      lessonId: lesson.id,
      hash,
      reason: `worded by ${model}; the deterministic wording was ${before.hash}`,
      related: entry.sources.map((source) => source.id),
    });
    entry.lesson = lesson;
    return null;
  })();
}

/**
 * After the night's transaction: each error or surprise lesson learned tonight is put to the wording model with
 * its sources, and told to describe what happened using only what they say. An answer that reads as an
 * instruction, quotes what no surprise says, or is too long is refused and counted; an accepted one replaces the
 * text and the hash. A model that is down, slow or answers garbage ends the pass: the rest keep their
 * deterministic wording and the note says so once. Never throws for the model's sake.
 */
export async function rewordPass(
  night: Night,
  config: WordingConfig,
  options: { budgetMs: number },
): Promise<WordingNote> {
  const model = `${config.api}:${config.model}`;
  const mergedTonight = new Set(night.report.merged.flatMap((merge) => [merge.into.id, ...merge.from]));
  const entries = [...night.lessons.values()].filter((entry) => mayReword(night, entry, mergedTonight));
  const note: WordingNote = { model, asked: 0, reworded: 0, fallback: null };
  // Wall time, not the clock: REMEM_NOW replays nights, but a model is waited for now.
  const deadline = performance.now() + options.budgetMs;
  for (const [index, entry] of entries.entries()) {
    const left = entries.length - index;
    const remaining = Math.floor(deadline - performance.now());
    if (remaining <= 0) {
      note.fallback = `the wording model's ${Math.round(options.budgetMs / 1000)} s budget ran out; ${left} new lesson${left === 1 ? '' : 's'} kept the deterministic wording`;
      break;
    }
    const endpoint = oneTry(config, Math.min(config.timeoutMs, remaining));
    let reply: string;
    try {
      reply = (await chat(endpoint, wordingRequest(entry.sources))).content;
    } catch (error) {
      note.fallback = `the wording model ${model} at ${config.url} failed (${(error as Error).message}); ${left} new lesson${left === 1 ? '' : 's'} kept the deterministic wording`;
      break;
    }
    note.asked++;
    const fallback = entry.lesson.text;
    const candidate = candidateOf(reply);
    const refused =
      refusalOf(candidate, fallback, entry.sources, night.params) ??
      replaceWording(night.db, night, entry, candidate, model);
    if (refused) {
      night.report.refused.push({
        text: candidate,
        reason: `${model}'s wording of lesson ${entry.lesson.id}: ${refused}; the deterministic wording is kept`,
      });
      continue;
    }
    note.reworded++;
    for (const line of night.report.learned) if (line.id === entry.lesson.id) line.text = candidate;
  }
  return note;
}
