/**
 * The strings each rule set's cues cannot match without (`requiredLiterals`), by rule set, worked out when a
 * bundle is built: scripts/bundle-prime.mjs fills this table for the sets the hook bundle holds, so a hook
 * process does not read every pattern to find them. Empty here: elsewhere each set's are worked out on first use.
 */
export const BUILT_LITERALS: Readonly<Record<string, readonly string[] | null>> = {};
