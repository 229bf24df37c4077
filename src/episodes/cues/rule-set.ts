/** One language's patterns within a rule set. */
export interface CueGroup {
  /** ISO 639-1 code, or `any` for shapes that are not words (log lines, markers). */
  lang: string;
  /**
   * Labelled rows (development data ids) this group was written from; none when it was written from the language
   * alone (its common forms of the cue), not from labelled rows.
   */
  examples: readonly string[];
  patterns: readonly RegExp[];
}

export interface RuleSet {
  name: string;
  groups: readonly CueGroup[];
}

/**
 * A rule set whose patterns are built the first time its groups are read: a hook builds only the sets it reads,
 * not every pattern of every set when it loads. Calls are marked pure, so a bundle leaves out the sets it never reads.
 */
export function ruleSet(name: string, groups: () => readonly CueGroup[]): RuleSet {
  let built: readonly CueGroup[] | undefined;
  return {
    name,
    get groups() {
      built ??= groups();
      return built;
    },
  };
}
