import type { CommandSpec } from './command.ts';

export const forgetCommand: CommandSpec = {
  name: 'forget',
  summary: 'veto a lesson: it is never written again',
  args: ['<ref>'],
  async run(context, args) {
    const { openStore } = await import('../store/index.ts');
    const { forget } = await import('../truth/index.ts');
    const { refreshViews } = await import('../truth/index.ts');
    const store = openStore(context.config.home);
    try {
      const vetoed = forget(store, args[0]!, context.clock.iso());
      refreshViews(store, context.clock.iso(), context.config.params.hashedDims);
      const text = vetoed.length
        ? vetoed
            .map(
              (lesson) =>
                `Vetoed ${lesson.id > 0 ? `#${lesson.id}` : 'layer lesson'} ${lesson.hash.slice(0, 12)}: ${lesson.text}`,
            )
            .join('\n')
        : 'Already vetoed.';
      return { json: { vetoed }, text };
    } finally {
      store.close();
    }
  },
};
