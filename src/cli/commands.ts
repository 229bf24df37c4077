import type { CommandSpec } from './command.ts';
import { episodesCommand } from './episodes.ts';
import { forgetCommand } from './forget.ts';
import { ingestCommand } from './ingest.ts';
import { lessonsCommand } from './lessons.ts';
import { recallCommand } from './recall.ts';
import { reportCommand } from './report.ts';
import { runCommand } from './run.ts';
import { setupCommand } from './setup.ts';
import { sleepCommand } from './sleep.ts';
import { statusCommand } from './status.ts';

/** Every verb of the command line. Each file parses, calls one module function and prints. */
export const commands: readonly CommandSpec[] = [
  runCommand,
  ingestCommand,
  episodesCommand,
  sleepCommand,
  lessonsCommand,
  recallCommand,
  reportCommand,
  forgetCommand,
  setupCommand,
  statusCommand,
];
