/**
 * core/'s light front door: what the prime hook's bundle takes from core/ (the clock, the config, the error type,
 * the values worked out at build), without the chat client, the guards and the rule tables `index.ts` brings.
 */

export { BUILT } from './built.ts';
export { createClock } from './clock.ts';
export { type Config, defaultParams, resolveConfig } from './config.ts';
export { RememError } from './errors.ts';
