import type { CommandSpec } from './command.ts';

/** A verb of the command line, by name: its file is loaded only when the verb runs or help lists it. */
export interface CommandEntry {
  name: string;
  load(): Promise<CommandSpec>;
}

/** Every verb of the command line. Each file parses, calls one module function and prints. */
export const commands: readonly CommandEntry[] = [
  { name: 'run', load: async () => (await import('./run.ts')).runCommand },
  { name: 'ingest', load: async () => (await import('./ingest.ts')).ingestCommand },
  { name: 'episodes', load: async () => (await import('./episodes.ts')).episodesCommand },
  { name: 'sleep', load: async () => (await import('./sleep.ts')).sleepCommand },
  { name: 'lessons', load: async () => (await import('./lessons.ts')).lessonsCommand },
  { name: 'recall', load: async () => (await import('./recall.ts')).recallCommand },
  { name: 'render', load: async () => (await import('./render.ts')).renderCommand },
  { name: 'report', load: async () => (await import('./report.ts')).reportCommand },
  { name: 'forget', load: async () => (await import('./forget.ts')).forgetCommand },
  { name: 'relate', load: async () => (await import('./relate.ts')).relateCommand },
  { name: 'review', load: async () => (await import('./review.ts')).reviewCommand },
  { name: 'prime', load: async () => (await import('./prime.ts')).primeCommand },
  { name: 'mcp', load: async () => (await import('./mcp.ts')).mcpCommand },
  { name: 'serve', load: async () => (await import('./serve.ts')).serveCommand },
  { name: 'proxy', load: async () => (await import('./proxy.ts')).proxyCommand },
  { name: 'ui', load: async () => (await import('./ui.ts')).uiCommand },
  { name: 'setup', load: async () => (await import('./setup.ts')).setupCommand },
  { name: 'status', load: async () => (await import('./status.ts')).statusCommand },
  { name: 'doctor', load: async () => (await import('./doctor.ts')).doctorCommand },
  { name: 'key', load: async () => (await import('./key.ts')).keyCommand },
  { name: 'share', load: async () => (await import('./share.ts')).shareCommand },
  { name: 'receive', load: async () => (await import('./receive.ts')).receiveCommand },
  { name: 'revoke', load: async () => (await import('./revoke.ts')).revokeCommand },
  { name: 'layer', load: async () => (await import('./layer.ts')).layerCommand },
  { name: 'commons', load: async () => (await import('./commons.ts')).commonsCommand },
  { name: 'simulate', load: async () => (await import('./simulate.ts')).simulateCommand },
  { name: 'measure', load: async () => (await import('./measure.ts')).measureCommand },
  { name: 'experiment', load: async () => (await import('./experiment.ts')).experimentCommand },
  { name: 'goals', load: async () => (await import('./goals.ts')).goalsCommand },
];
