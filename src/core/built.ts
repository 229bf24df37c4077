/**
 * Values a bundle works out when it is built, so that a process that runs once (a hook) does not work them out
 * every time: scripts/bundle-prime.mjs writes this module anew in the prime bundle, with the values for what
 * the bundle holds. Here there are none, and each is worked out on first use.
 */
export interface Built {
  /**
   * The literals of each pattern of each named rule set the bundle holds (episodes/literals.ts), in order, as JSON
   * text. A code cache keeps one string per set, where arrays would be a string per literal.
   */
  literals?: Record<string, string>;
  /** The estimate kernel's WebAssembly module (truth/estimate-kernel.ts), in base64. */
  estimateKernel?: string;
}

export const BUILT: Built = {};
