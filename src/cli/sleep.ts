import { defineCommand } from './command.ts';

export const sleepCommand = defineCommand({
  name: 'sleep',
  summary: 'the six passes, once: embed, decay, lessons, merge, verify, predict',
  async run(context) {
    const { openStore } = await import('../store/index.ts');
    const { sleep, morningReportText } = await import('../sleep/index.ts');
    const { delegationTally } = await import('../store/index.ts');
    const store = openStore(context.config.home);
    try {
      const report = await sleep(store, context.config, context.clock);
      const { refreshViews } = await import('../truth/index.ts');
      refreshViews(store, context.clock.iso(), context.config.params);
      return { json: report, text: morningReportText(report, delegationTally(store.db)) };
    } finally {
      store.close();
    }
  },
});
