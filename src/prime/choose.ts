/**
 * What the hooks choose to show, as plain functions over what they found: the prime hook calls them on the
 * prime index's rows, `remem measure` on the lessons of a replayed history, so both make the one choice.
 */

/** A lesson (or a question's pair) that met a prompt or a tool call. */
export interface Met {
  /** The lesson hashes it shows: one for a lesson, two for a question. */
  hashes: readonly string[];
  /** Its cosine with the query; a lesson met by subject alone has none. */
  similarity: number;
}

export interface PrimeChoice<T extends Met> {
  chosen: T[];
  /** Why the others were not shown, counted by reason. */
  reasons: Record<string, number>;
}

/**
 * Priming: those met by their words at or over the cut, most similar first (ties keep their order), then those
 * met by subject alone; at most `limit`, and none that shares a hash with one shown earlier in the session or
 * that the session loaded when it started (`loaded`): the agent has it in view already.
 */
export function choosePrimes<T extends Met>(
  byWords: readonly T[],
  bySubject: readonly T[],
  options: {
    cut: number;
    limit: number;
    shownBefore: ReadonlySet<string>;
    loaded?: (candidate: T) => boolean;
  },
): PrimeChoice<T> {
  const met = byWords.filter((candidate) => candidate.similarity >= options.cut);
  met.sort((a, b) => b.similarity - a.similarity);
  met.push(...bySubject);
  const chosen: T[] = [];
  const reasons: Record<string, number> = {};
  const drop = (reason: string) => {
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  };
  for (const candidate of met) {
    if (candidate.hashes.some((hash) => options.shownBefore.has(hash))) drop('shown_earlier_in_session');
    else if (options.loaded?.(candidate)) drop('loaded_at_session_start');
    else if (chosen.length >= options.limit) drop('over_limit_per_moment');
    else chosen.push(candidate);
  }
  return { chosen, reasons };
}

/** A correction lesson's sources so far, and how many of them followed an offer (`offerShare`). */
export interface OfferSources {
  sources: number;
  afterOffer: number;
}

/**
 * The end-of-turn reminder: of the correction lessons, the one with the most sources among those that bear on
 * offers (most of their sources followed one); the first of equals. Null when none bears on them.
 */
export function chooseReminder<T extends OfferSources>(corrections: Iterable<T>): T | null {
  let best: T | null = null;
  for (const lesson of corrections) {
    if (lesson.sources === 0 || lesson.afterOffer * 2 <= lesson.sources) continue;
    if (!best || lesson.sources > best.sources) best = lesson;
  }
  return best;
}

/**
 * Whether the chosen reminder was already given in this session: a reminder stays in the agent's context for
 * the rest of the session, so the same lesson again would add only lines. The end of the turn then says nothing.
 */
export function remindedEarlier(hashes: readonly string[], reminded: ReadonlySet<string>): boolean {
  return hashes.some((hash) => reminded.has(hash));
}
