import { defineCommand } from './command.ts';

export const goalsCommand = defineCommand({
  name: 'goals',
  summary: 'the targets fixed in advance (docs/GOALS.md), each checked from the kept runs and the store',
  async run(context) {
    const { openStore } = await import('../store/index.ts');
    const { measure } = await import('../measure/index.ts');
    const { checkGoals, goalsText } = await import('../experiment/index.ts');
    const store = openStore(context.config.home);
    try {
      const report = measure(store, { params: context.config.params, now: context.clock.iso() });
      const results = checkGoals(context.config.home, report);
      return { json: { goals: results }, text: goalsText(results) };
    } finally {
      store.close();
    }
  },
});
