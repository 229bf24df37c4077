import { UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';

export const renderCommand = defineCommand({
  name: 'render',
  summary: 'write the lessons where agents load them, or print them as a prompt block or tools',
  options: [
    {
      flags: '--dir <dir>',
      description: 'write the lesson files and the MEMORY.md section into this folder instead',
    },
    {
      flags: '--format <format>',
      description: 'print instead: prompt, openai-tools, anthropic-tools or gemini-tools',
    },
    {
      flags: '--project <dir>',
      description: 'with --format: the project asking (default: the working directory)',
    },
  ],
  async run(context, _args, options) {
    const render = await import('../render/index.ts');
    const format = options.format;
    if (format !== undefined && !render.renderFormats.includes(format as never)) {
      throw new UsageError(`--format must be one of ${render.renderFormats.join(', ')}`);
    }
    const { openStore } = await import('../store/index.ts');
    const store = openStore(context.config.home);
    try {
      const now = context.clock.iso();
      if (format) {
        const { atSessionStart, showToAgent, startBudget } = await import('../truth/index.ts');
        const { projectOf } = await import('../episodes/index.ts');
        const project = projectOf(options.project ?? process.cwd());
        // What session start loads, as the memory folder holds it.
        const visible = showToAgent(
          store.db,
          { now, scope: { project }, moment: 'render', session: null },
          atSessionStart(startBudget(store.db, project, context.config.params.render)),
        );
        if (format === 'prompt') {
          const text = render.promptBlock(visible);
          const items = visible.map((item) =>
            item.type === 'lesson'
              ? {
                  type: item.type,
                  hash: item.lesson.hash,
                  kind: item.lesson.kind,
                  seen: item.lesson.seen,
                  strength: item.lesson.strength,
                  happenedAt: item.lesson.happenedAt,
                  text: item.lesson.text,
                }
              : { type: item.type, text: item.text },
          );
          return { json: { format, text, items }, text: text || '(no lessons yet)' };
        }
        const tools = render.toolsFor(format as Exclude<typeof format, 'prompt'> as never, visible);
        return { json: tools, text: JSON.stringify(tools, null, 2) };
      }
      const { wiredForRender } = await import('../night/index.ts');
      const wired = await wiredForRender(context.config.home);
      const report = render.renderMemory(store, context.config, {
        now,
        ...(options.dir ? { dir: options.dir } : { wired }),
      });
      const lines = report.targets.map(
        (target) => `${target.folder}: ${target.files} lesson files, ${target.indexLines} index lines`,
      );
      if (report.agentsFile) lines.push(`${report.agentsFile}: managed block`);
      for (const veto of report.vetoed)
        lines.push(`vetoed ${veto.hash.slice(0, 12)}: the owner deleted ${veto.file}`);
      return {
        json: report,
        text: lines.length
          ? lines.join('\n')
          : wired.size === 0 && !options.dir
            ? 'Nothing written: no agent is wired yet. `remem setup` wires them (it lists what it will write); `remem render --dir DIR` writes the lessons into a folder of your choice.'
            : 'No agent memory folder found to write.',
      };
    } finally {
      store.close();
    }
  },
});
