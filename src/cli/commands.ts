import type { CommandSpec } from './command.ts';
import { commonsCommand } from './commons.ts';
import { doctorCommand } from './doctor.ts';
import { episodesCommand } from './episodes.ts';
import { experimentCommand } from './experiment.ts';
import { forgetCommand } from './forget.ts';
import { goalsCommand } from './goals.ts';
import { ingestCommand } from './ingest.ts';
import { keyCommand } from './key.ts';
import { layerCommand } from './layer.ts';
import { lessonsCommand } from './lessons.ts';
import { mcpCommand } from './mcp.ts';
import { measureCommand } from './measure.ts';
import { primeCommand } from './prime.ts';
import { proxyCommand } from './proxy.ts';
import { recallCommand } from './recall.ts';
import { receiveCommand } from './receive.ts';
import { relateCommand } from './relate.ts';
import { renderCommand } from './render.ts';
import { reportCommand } from './report.ts';
import { reviewCommand } from './review.ts';
import { revokeCommand } from './revoke.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { setupCommand } from './setup.ts';
import { shareCommand } from './share.ts';
import { simulateCommand } from './simulate.ts';
import { sleepCommand } from './sleep.ts';
import { statusCommand } from './status.ts';
import { uiCommand } from './ui.ts';

/** Every verb of the command line. Each file parses, calls one module function and prints. */
export const commands: readonly CommandSpec[] = [
  runCommand,
  ingestCommand,
  episodesCommand,
  sleepCommand,
  lessonsCommand,
  recallCommand,
  renderCommand,
  reportCommand,
  forgetCommand,
  relateCommand,
  reviewCommand,
  primeCommand,
  mcpCommand,
  serveCommand,
  proxyCommand,
  uiCommand,
  setupCommand,
  statusCommand,
  doctorCommand,
  keyCommand,
  shareCommand,
  receiveCommand,
  revokeCommand,
  layerCommand,
  commonsCommand,
  simulateCommand,
  measureCommand,
  experimentCommand,
  goalsCommand,
];
