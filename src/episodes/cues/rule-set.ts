import type { CueGroup, RuleSet } from './index.ts';

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
