import { defineCommand } from './command.ts';

export const forgetCommand = defineCommand({
  name: 'forget',
  summary: 'veto a lesson: removed at once from everything agents read, and never written again',
  args: ['<ref>'],
  async run(context, args) {
    const { openStore } = await import('../store/index.ts');
    const { forget } = await import('../truth/index.ts');
    const { refreshViews } = await import('../truth/index.ts');
    const store = openStore(context.config.home);
    try {
      const now = context.clock.iso();
      const vetoed = forget(store, args[0]!, now);
      if (vetoed.length === 0) return { json: { vetoed, removedFrom: [] }, text: 'Already vetoed.' };
      // At once, everywhere an agent reads: the hooks' index and lessons.jsonl, then the memory folders and the
      // AGENTS.md block, written again without the lesson.
      refreshViews(store, now, context.config.params);
      const { renderMemory } = await import('../render/index.ts');
      const { wiredForRender } = await import('../night/index.ts');
      const rendered = renderMemory(store, context.config, {
        now,
        wired: await wiredForRender(context.config.home),
      });
      const removedFrom = [
        "the hooks' index (prime) and lessons.jsonl",
        ...rendered.targets.map((target) => `${target.folder} (its file and MEMORY.md line)`),
        ...(rendered.agentsFile ? [`${rendered.agentsFile} (the managed block)`] : []),
      ];
      const text = [
        ...vetoed.map(
          (lesson) =>
            `Vetoed ${lesson.id > 0 ? `#${lesson.id}` : 'layer lesson'} ${lesson.hash.slice(0, 12)}: ${lesson.text}`,
        ),
        'Removed now from:',
        ...removedFrom.map((place) => `  ${place}`),
      ].join('\n');
      return { json: { vetoed, removedFrom }, text };
    } finally {
      store.close();
    }
  },
});
