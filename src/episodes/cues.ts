/** The rule sets, one file per detector under `cues/`. */
export * from './cues/index.ts';
