import { dot, subjectsMeet, subjectsOf } from '../embed/index.ts';
import { needsPerson } from '../episodes/index.ts';
import { choosePrimes, chooseReminder, remindedEarlier } from '../prime/index.ts';
import { share } from './fisher.ts';
import { type History, type LessonInfo, lessonVector, type Message, vectorOf } from './history.ts';
import { restated } from './rates.ts';

/** One memory, replayed over the history: how many repeated corrections it had put in front of the agent. */
export interface ReplayArm {
  name: string;
  /** Repeated corrections whose earlier correction (or a lesson holding it) was put before the agent first. */
  caught: number;
  /** Items put before the agent over the whole history. */
  items: number;
  /** Catches per 100 items. */
  perHundred: number | null;
}

export interface ReplayFigures {
  /** The person's messages: the turns a memory could act on. */
  turns: number;
  messages: number;
  repeatedCorrections: number;
  /** Remem's own injections: the logged ones, or the hooks' rules replayed when none are logged. */
  remem: ReplayArm & { source: 'logged' | 'replayed'; primes: number; reminders: number };
  /** A memory that keeps every message and puts back the k most similar on every turn. */
  baselines: (ReplayArm & { k: number })[];
}

/** What one memory put before the agent: in which session, when, naming which lessons or messages. */
interface Put {
  session: string;
  at: string;
  lessons: LessonInfo[];
  /** An end-of-turn reminder, not a prime. */
  stop: boolean;
}

/**
 * Against normal memory (paper §7.1, finding 6): over the stored history, which repeated corrections had the
 * earlier correction in front of the agent earlier in their session, and at what cost in items.
 */
export function replayFigures(history: History, ks: readonly number[] = [3, 20]): ReplayFigures {
  const cut = history.params.sameSurprise.hashed;
  const corrections = history.surprises.filter((surprise) => surprise.kind === 'correction');
  const repeated = corrections
    .map((correction) => ({ correction, earlier: restated(correction, corrections, cut) }))
    .filter((entry) => entry.earlier.length > 0);
  const turns = history.messages.filter((message) => message.role === 'person');

  const logged = history.injections.length > 0;
  const puts: Put[] = logged
    ? history.injections.map((injection) => ({
        session: injection.session,
        at: injection.at,
        stop: injection.moment === 'stop',
        lessons: injection.lessonHashes.flatMap((hash) => {
          const lesson = history.byHash.get(hash);
          return lesson ? [lesson] : [];
        }),
      }))
    : replayedPuts(history, turns);
  // A logged hash whose lesson is gone still cost an item.
  const rememItems = logged
    ? history.injections.reduce((sum, injection) => sum + injection.lessonHashes.length, 0)
    : puts.reduce((sum, put) => sum + put.lessons.length, 0);
  const reminders = puts.filter((put) => put.stop).length;
  const rememCaught = repeated.filter(({ correction, earlier }) => {
    const held = new Set(earlier.map((surprise) => surprise.lessonId).filter((id) => id !== null));
    return puts.some(
      (put) =>
        put.session === correction.session &&
        put.at < correction.at &&
        put.lessons.some((lesson) => held.has(lesson.id)),
    );
  }).length;

  const baselines = ks.map((k) => {
    let items = 0;
    let pool = 0;
    let cursor = 0;
    for (const turn of turns) {
      while (cursor < history.messages.length && history.messages[cursor]!.at < turn.at) {
        cursor++;
        pool++;
      }
      items += Math.min(k, pool);
    }
    const caught = repeated.filter(({ correction, earlier }) =>
      baselineCaught(history, turns, correction.session, correction.at, new Set(earlier.map((e) => e.id)), k),
    ).length;
    return {
      name: `every message, ${k} back a turn`,
      k,
      caught,
      items,
      perHundred: perHundred(caught, items),
    };
  });

  return {
    turns: turns.length,
    messages: history.messages.length,
    repeatedCorrections: repeated.length,
    remem: {
      name: logged ? 'Remem (logged injections)' : 'Remem (its rules replayed)',
      source: logged ? 'logged' : 'replayed',
      caught: rememCaught,
      items: rememItems,
      perHundred: perHundred(rememCaught, rememItems),
      primes: rememItems - reminders,
      reminders,
    },
    baselines,
  };
}

function perHundred(caught: number, items: number): number | null {
  const value = share(caught, items);
  return value === null ? null : value * 100;
}

const messageVectors = new WeakMap<Message, Float32Array>();

function messageVector(message: Message, history: History): Float32Array {
  let vec = messageVectors.get(message);
  if (!vec) {
    vec = vectorOf(message.text, history.params);
    messageVectors.set(message, vec);
  }
  return vec;
}

/** Did any turn of the session before the correction put back one of the corrections it restates? */
function baselineCaught(
  history: History,
  turns: readonly Message[],
  session: string,
  before: string,
  wanted: ReadonlySet<number>,
  k: number,
): boolean {
  for (const turn of turns) {
    if (turn.session !== session || turn.at >= before) continue;
    const query = messageVector(turn, history);
    const pool = history.messages.filter((message) => message.at < turn.at);
    const top = pool
      .map((message) => ({ message, score: dot(query, messageVector(message, history)) }))
      .sort((a, b) => b.score - a.score || (a.message.at > b.message.at ? -1 : 1))
      .slice(0, k);
    if (top.some(({ message }) => message.correctionId !== undefined && wanted.has(message.correctionId)))
      return true;
  }
  return false;
}

/** Lessons an agent in `session` could have been shown at `at`: they existed, approved, not vetoed, in scope. */
function lessonsAt(history: History, session: string, at: string): LessonInfo[] {
  const project = history.sessions.get(session)?.project ?? null;
  return [...history.lessons.values()].filter(
    (lesson) =>
      lesson.createdAt <= at &&
      lesson.approved &&
      (lesson.vetoedAt === null || lesson.vetoedAt > at) &&
      (lesson.project === null || lesson.project === project),
  );
}

/** The hooks' rules replayed over the history, when nothing was logged: what each would have shown, and when. */
export function replayedInjections(
  history: History,
): { session: string; at: string; stop: boolean; lessonHashes: string[] }[] {
  const turns = history.messages.filter((message) => message.role === 'person');
  return replayedPuts(history, turns).map(({ session, at, stop, lessons }) => ({
    session,
    at,
    stop,
    lessonHashes: lessons.map((lesson) => lesson.hash),
  }));
}

function replayedPuts(history: History, turns: readonly Message[]): Put[] {
  return [...replayPrimes(history, turns), ...replayReminders(history)];
}

/**
 * The priming rule replayed at each prompt, by the prompt hook's own choice (`choosePrimes`): lessons over the
 * priming cut, then corrections met by what both are about, at most `perPrompt`, each once a session.
 */
function replayPrimes(history: History, turns: readonly Message[]): Put[] {
  const cut = history.params.priming.hashed;
  const shown = new Map<string, Set<string>>();
  const puts: Put[] = [];
  // A lesson's vector changes only when a source joins it: one per lesson and number of sources.
  const vectors = new Map<string, Float32Array>();
  const vectorAt = (lesson: LessonInfo, at: string) => {
    const key = `${lesson.hash}:${lesson.sources.filter((source) => source.at <= at).length}`;
    let vec = vectors.get(key);
    if (!vec) {
      vec = lessonVector(lesson, at);
      vectors.set(key, vec);
    }
    return vec;
  };
  for (const turn of turns) {
    const candidates = lessonsAt(history, turn.session, turn.at);
    if (candidates.length === 0) continue;
    const query = messageVector(turn, history);
    const before = shown.get(turn.session) ?? new Set<string>();
    shown.set(turn.session, before);
    const met = candidates.map((lesson) => ({
      lesson,
      hashes: [lesson.hash],
      similarity: dot(query, vectorAt(lesson, turn.at)),
    }));
    // As the hook: corrections the words did not meet, read up to `subjectReads` of those sharing a subject bit,
    // and kept when they name a subject of the prompt. The hook reads them in its index's order (strength); the
    // replay in the lessons' order.
    const subjects = subjectsOf(turn.text);
    const bySubject = met
      .filter(
        ({ lesson, similarity }) =>
          lesson.kind === 'correction' && similarity < cut && (lesson.subjects.mask & subjects.mask) !== 0,
      )
      .slice(0, history.params.priming.subjectReads)
      .filter(({ lesson }) => subjectsMeet(subjects, lesson.subjects))
      .map((entry) => ({ ...entry, similarity: 0 }));
    const { chosen } = choosePrimes(met, bySubject, {
      cut,
      limit: history.params.priming.perPrompt,
      shownBefore: before,
    });
    for (const { lesson } of chosen) before.add(lesson.hash);
    if (chosen.length)
      puts.push({
        session: turn.session,
        at: turn.at,
        lessons: chosen.map(({ lesson }) => lesson),
        stop: false,
      });
  }
  return puts;
}

/**
 * The end-of-turn rule replayed on every reply that ended offering, by the Stop hook's own choice
 * (`chooseReminder`): the correction lesson that existed then and most of whose sources followed an offer,
 * unless the person's last message said only they have what is needed, and never the same lesson twice a session.
 */
function replayReminders(history: History): Put[] {
  const puts: Put[] = [];
  const reminded = new Map<string, Set<string>>();
  for (const offer of history.offers) {
    if (offer.kind !== 'offer') continue;
    const lastPrompt = history.messages.findLast(
      (message) => message.session === offer.session && message.role === 'person' && message.at < offer.at,
    );
    if (lastPrompt && needsPerson(lastPrompt.text)) continue;
    const corrections = lessonsAt(history, offer.session, offer.at)
      .filter((lesson) => lesson.kind === 'correction')
      .map((lesson) => {
        const sources = lesson.sources.filter((source) => source.at <= offer.at);
        return {
          lesson,
          sources: sources.length,
          afterOffer: sources.filter((source) => source.afterOffer).length,
        };
      });
    const best = chooseReminder(corrections);
    if (!best) continue;
    const before = reminded.get(offer.session) ?? new Set<string>();
    reminded.set(offer.session, before);
    if (remindedEarlier([best.lesson.hash], before)) continue;
    before.add(best.lesson.hash);
    puts.push({ session: offer.session, at: offer.at, lessons: [best.lesson], stop: true });
  }
  return puts;
}
