import { realpathSync } from 'node:fs';
import type { CommandSpec } from './command.ts';

/** The absolute path of this `remem`, so hooks and the nightly job find it with a minimal PATH. */
export function binaryPath(): string {
  try {
    return realpathSync(process.argv[1] ?? 'remem');
  } catch {
    return 'remem';
  }
}

export const setupCommand: CommandSpec = {
  name: 'setup',
  summary: 'wire Remem into every installed agent (MCP, hooks) and schedule the nightly job',
  options: [
    { flags: '--dry-run', description: 'print the diff of every file it would change, and change nothing' },
    { flags: '--remove', description: 'undo exactly what setup did' },
    {
      flags: '--agent <name>',
      description:
        'only this agent (repeatable): claude-code, codex, cursor, windsurf, gemini, claude-desktop, nightly',
      parse: 'list',
    },
    { flags: '--http', description: 'wire hooks to a running `remem serve` instead of spawning a process' },
    {
      flags: '--port <port>',
      description: 'the port of `remem serve` for --http',
      parse: 'int',
      default: 7777,
    },
  ],
  async run(context, _args, options) {
    const setup = await import('../setup/index.ts');
    const http =
      options['http'] === true
        ? {
            port: options['port'] as number,
            token: (await import('../api/token.ts')).loadOrCreateToken(context.config.home),
          }
        : undefined;
    const plan = setup.planSetup(setup.setupEnvFrom(context.config), {
      ...(options['agent'] ? { agents: options['agent'] as string[] } : {}),
      ...(http ? { http } : {}),
      remove: options['remove'] === true,
      binary: binaryPath(),
      home: context.config.home,
    });
    if (options['dryRun'] === true) return { json: plan, text: setup.formatPlan(plan, { dryRun: true }) };
    const result = setup.applySetup(plan, setup.createProcessRunner());
    const text = setup.formatPlan(plan, { dryRun: false, result });
    if (options['remove'] === true) return { json: { plan, result }, text };
    const share = Math.round(context.config.holdout * 100);
    const holdout =
      share === 0
        ? 'The holdout is off: every session gets the lessons that apply.'
        : `${share}% of sessions get no lessons, chosen at random: comparing them with the others is how Remem tells whether its lessons help (remem doctor shows it so far). REMEM_HOLDOUT=0, or "holdout": 0 in ${context.config.home}/config.json, turns it off.`;
    return { json: { plan, result, holdout: context.config.holdout }, text: `${text}${holdout}\n` };
  },
};
