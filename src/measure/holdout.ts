import { classifyHandback } from '../episodes/index.ts';
import { fisherExact, share } from './fisher.ts';
import { type History, type InjectionInfo, linkage, type Message } from './history.ts';

export interface Arm {
  n: number;
  k: number;
  rate: number | null;
}

/** Shown against held out, with a two-sided Fisher exact test. */
export interface Comparison {
  shown: Arm;
  heldOut: Arm;
  p: number | null;
}

export interface HoldoutFigures {
  /**
   * Each lesson primed in a session (at a prompt or a tool call), once: did a correction or an error of the
   * lesson's kind that matches it (average linkage over its sources as of the prime, at the same-surprise cut)
   * follow it in that session?
   */
  primes: Comparison & { unknownLessons: number };
  /**
   * Each end-of-turn reminder, fired or held back: did the turn's last reply still hand back (the hooks'
   * rule), and did the person's next message correct it? `unmatched`: reminders whose turn is not in the store.
   */
  stops: { handedBack: Comparison; corrected: Comparison; unmatched: number };
}

/**
 * The Stop hook runs as the reply it read is written; the reply's own time is a little earlier than the
 * hook's. A minute covers a slow hook and the clock of the transcript against the hook's.
 */
const STOP_SLACK_MS = 60_000;

function arm(k: number, n: number): Arm {
  return { n, k, rate: share(k, n) };
}

function compare(shown: { k: number; n: number }, held: { k: number; n: number }): Comparison {
  const p =
    shown.n === 0 || held.n === 0
      ? null
      : fisherExact({ a: shown.k, b: shown.n - shown.k, c: held.k, d: held.n - held.k });
  return { shown: arm(shown.k, shown.n), heldOut: arm(held.k, held.n), p };
}

function tally(): { shown: { k: number; n: number }; held: { k: number; n: number } } {
  return { shown: { k: 0, n: 0 }, held: { k: 0, n: 0 } };
}

/** The randomized comparisons the holdout makes possible: what followed shown primes against held-back ones. */
export function holdoutFigures(history: History): HoldoutFigures {
  const cut = history.params.sameSurprise.hashed;
  const primes = tally();
  let unknownLessons = 0;
  const primed = new Set<string>();
  for (const injection of history.injections) {
    if (injection.moment === 'stop') continue;
    for (const hash of injection.lessonHashes) {
      const unit = `${injection.session}\u0000${hash}`;
      if (primed.has(unit)) continue;
      primed.add(unit);
      const lesson = history.byHash.get(hash);
      if (!lesson) {
        unknownLessons++;
        continue;
      }
      const repeated = history.surprises.some(
        (surprise) =>
          surprise.session === injection.session &&
          surprise.at > injection.at &&
          surprise.kind === lesson.kind &&
          surprise.kind !== 'surprise' &&
          linkage(surprise.vec, lesson, injection.at) >= cut,
      );
      const side = injection.shown ? primes.shown : primes.held;
      side.n++;
      if (repeated) side.k++;
    }
  }

  const handedBack = tally();
  const corrected = tally();
  let unmatched = 0;
  const stops = history.injections.filter((injection) => injection.moment === 'stop');
  const bySession = new Map<string, Message[]>();
  for (const message of history.messages) {
    bySession.set(message.session, [...(bySession.get(message.session) ?? []), message]);
  }
  for (const stop of stops) {
    const outcome = stopOutcome(history, bySession.get(stop.session) ?? [], stops, stop);
    if (!outcome) {
      unmatched++;
      continue;
    }
    const [back, fixed] = [handedBack, corrected].map((t) => (stop.shown ? t.shown : t.held)) as [
      { k: number; n: number },
      { k: number; n: number },
    ];
    back.n++;
    fixed.n++;
    if (outcome.handedBack) back.k++;
    if (outcome.corrected) fixed.k++;
  }
  return {
    primes: { ...compare(primes.shown, primes.held), unknownLessons },
    stops: {
      handedBack: compare(handedBack.shown, handedBack.held),
      corrected: compare(corrected.shown, corrected.held),
      unmatched,
    },
  };
}

function shift(iso: string, ms: number): string {
  return new Date(new Date(iso).getTime() + ms).toISOString();
}

/**
 * How the turn of a Stop ended. From the kept conversation: its last reply from just before the hook ran
 * (the reply the hook read) to the person's next message, read by the hooks' hand-back rule; corrected when
 * that next message is a correction. A session known only from episodes falls back on the stored offers: the
 * first from just before the hook, ahead of the session's next reminder and its next correction.
 */
function stopOutcome(
  history: History,
  conversation: readonly Message[],
  stops: readonly InjectionInfo[],
  stop: InjectionInfo,
): { handedBack: boolean; corrected: boolean } | null {
  const from = shift(stop.at, -STOP_SLACK_MS);
  if (conversation.some((message) => message.role === 'agent')) {
    const next = conversation.find((message) => message.role === 'person' && message.at > stop.at);
    const last = conversation.findLast(
      (message) =>
        message.role === 'agent' && message.at >= from && (next === undefined || message.at < next.at),
    );
    if (!last) return null;
    const handedBack = classifyHandback(last.text.slice(-1500)) !== null;
    return { handedBack, corrected: handedBack && next?.correctionId !== undefined };
  }
  const nextStop = stops.find((other) => other.session === stop.session && other.at > stop.at);
  const until = nextStop ? shift(nextStop.at, -STOP_SLACK_MS) : null;
  const nextCorrection = history.surprises.find(
    (surprise) =>
      surprise.kind === 'correction' && surprise.session === stop.session && surprise.at > stop.at,
  );
  const offer = history.offers.find(
    (offer) =>
      offer.session === stop.session &&
      offer.at >= from &&
      (until === null || offer.at < until) &&
      (nextCorrection === undefined || offer.at <= nextCorrection.at),
  );
  if (!history.offers.some((offer) => offer.session === stop.session)) return null;
  return { handedBack: offer !== undefined, corrected: offer?.answer === 'corrected' };
}
