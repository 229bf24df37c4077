import { defineCommand } from './command.ts';

export const recallCommand = defineCommand({
  name: 'recall',
  readsHome: true,
  summary:
    'search lessons and episodes: 0.60 relevance + 0.25 recency + 0.15 strength; looking changes nothing unless --touch',
  args: ['<query...>'],
  options: [
    { flags: '-k, --k <n>', description: 'how many results', parse: 'int', range: [1, 1000], default: 5 },
    {
      flags: '--project <dir>',
      description: 'the project asking (default: the git root of the working directory)',
    },
    { flags: '--all-projects', description: "every project's lessons and episodes" },
    {
      flags: '--touch',
      description:
        'count this look as use: each hit is strengthened and its decay starts again (without it, recall changes nothing)',
    },
  ],
  async run(context, args, options) {
    const { openStore } = await import('../store/index.ts');
    const { recall } = await import('../recall/index.ts');
    const { projectOf } = await import('../episodes/index.ts');
    const query = args.join(' ').trim();
    const store = openStore(context.config.home);
    try {
      const answer = await recall(store, context.config, query, {
        k: options.k,
        now: context.clock.iso(),
        scope: {
          project: projectOf(options.project ?? process.cwd()),
          allProjects: options.allProjects === true,
        },
        by: { agent: false, touch: options.touch === true },
      });
      const text = answer.hits.length
        ? answer.hits
            .map((hit) => {
              const { item, score, components: c } = hit;
              return `${score.toFixed(3)}  ${item.type} #${item.id} ${item.kind}  (relevance ${c.relevance.toFixed(2)}, recency ${c.recency.toFixed(2)}, strength ${c.strength.toFixed(2)})\n  ${oneLine(item.type === 'lesson' ? item.text : `${item.title} — ${item.text}`)}`;
            })
            .join('\n')
        : `Nothing recalled for "${query}".`;
      return { json: answer, text };
    } finally {
      store.close();
    }
  },
});

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
