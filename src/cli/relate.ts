import { UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';

const relations = ['refutes', 'supersedes', 'supports'] as const;

export const relateCommand = defineCommand({
  name: 'relate',
  summary: 'say how two lessons bear on each other: A refutes|supersedes|supports B',
  args: ['<a>', '<relation>', '<b>'],
  async run(context, args) {
    const [from, kind, to] = args as [string, string, string];
    if (!(relations as readonly string[]).includes(kind)) {
      throw new UsageError(`the relation is one of ${relations.join(', ')}, got ${kind}`);
    }
    const { openStore } = await import('../store/index.ts');
    const { refreshViews, relateLessons } = await import('../truth/index.ts');
    const store = openStore(context.config.home);
    try {
      const result = relateLessons(store, {
        from,
        kind: kind as (typeof relations)[number],
        to,
        now: context.clock.iso(),
      });
      refreshViews(store, context.clock.iso(), context.config.params);
      const said = `#${result.from.id} ${kind} #${result.to.id}`;
      const text = result.added ? `Recorded: ${said}.` : `Already recorded: ${said}.`;
      return { json: { relation: result.relation, added: result.added }, text };
    } finally {
      store.close();
    }
  },
});
