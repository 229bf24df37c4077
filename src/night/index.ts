/** The nightly job and what a session's end does, as the command line and any scheduler call them. */
export { type LearnedNow, learnNow } from './learn-now.ts';
export { type NightFolders, type NightOptions, type NightResult, runNight } from './run.ts';
export { wiredForRender } from './wired.ts';
