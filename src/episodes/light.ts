/**
 * episodes/' light front door: the two detectors a hook runs and the project rule, without the ingest machinery
 * (and the schema library) behind `index.ts`; and ingest's parser, whose worker a command line starts first.
 */
export { classifyHandback, HANDBACK_CHARS, needsPerson, offersWork } from './detect-handback.ts';
export { projectOf } from './project.ts';
export { openTurnParser, type TurnParser } from './turn-parser.ts';
