import { realpathSync } from 'node:fs';
import { RememError, UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';

/** The absolute path of this `remem`, so hooks and the nightly job find it with a minimal PATH. */
export function binaryPath(): string {
  try {
    return realpathSync(process.argv[1] ?? 'remem');
  } catch {
    return 'remem';
  }
}

export const setupCommand = defineCommand({
  name: 'setup',
  summary: 'wire Remem into every installed agent (MCP, hooks) and schedule the nightly job',
  options: [
    { flags: '--dry-run', description: 'print the diff of every file it would change, and change nothing' },
    { flags: '--remove', description: 'undo exactly what setup did' },
    {
      flags: '--agent <name>',
      description:
        'only this agent (repeatable): claude-code, codex, cursor, windsurf, gemini, claude-desktop, cline, roo-code, kilo-code, nightly',
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
      options.http === true
        ? {
            port: options.port,
            token: (await import('../api/index.ts')).loadOrCreateToken(context.config.home),
          }
        : undefined;
    const plan = usage(() =>
      setup.planSetup(setup.setupEnvFrom(context.config), {
        ...(options.agent ? { agents: options.agent } : {}),
        ...(http ? { http } : {}),
        remove: options.remove === true,
        binary: binaryPath(),
        home: context.config.home,
      }),
    );
    if (options.dryRun === true) return { json: plan, text: setup.formatPlan(plan, { dryRun: true }) };
    const result = setup.applySetup(plan, setup.createProcessRunner());
    let text = setup.formatPlan(plan, { dryRun: false, result });
    // A part that did not take effect fails the command, and the text says which did and which did not.
    const failed = result.schedule.filter((outcome) => !outcome.ok && outcome.action === 'install');
    const code = failed.length > 0 ? 1 : 0;
    if (code === 1)
      text += `Not done: the nightly job is not scheduled (${failed.map((outcome) => outcome.message).join('; ')}). Everything else listed above took effect; run \`remem run\` once a day yourself, or schedule it, until it is.\n`;
    if (options.remove === true) {
      // Everything Remem wrote for those agents goes too: lesson files, managed blocks, the folders it made.
      const { removeRendered } = await import('../render/index.ts');
      const named = options.agent;
      const removed: string[] = [];
      for (const agent of ['claude-code', 'codex'] as const) {
        if (named && !named.includes(agent)) continue;
        removed.push(...removeRendered(context.config.home, agent));
      }
      if (removed.length)
        text += `Took out what Remem wrote where agents read (${removed.length} files and folders), each file as it was before.\n`;
      return { json: { plan, result, removed }, text, code };
    }
    const share = Math.round(context.config.holdout * 100);
    const holdout =
      share === 0
        ? 'The holdout is off: every session gets the lessons that apply.'
        : `${share}% of sessions get no lessons, chosen at random: comparing them with the others is how Remem tells whether its lessons help (remem doctor shows it so far). REMEM_HOLDOUT=0, or "holdout": 0 in ${context.config.home}/config.json, turns it off.`;
    return { json: { plan, result, holdout: context.config.holdout }, text: `${text}${holdout}\n`, code };
  },
});

/** An agent `--agent` named that Remem does not know: the command was called wrongly. */
function usage<T>(plan: () => T): T {
  try {
    return plan();
  } catch (error) {
    if (error instanceof RememError && error.code === 'unknown_agent') throw new UsageError(error.message);
    throw error;
  }
}
