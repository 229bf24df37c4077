import type { CommandSpec } from './command.ts';

export const measureCommand: CommandSpec = {
  name: 'measure',
  summary:
    'the memory measures its own effect: repeat rates, prediction accuracy, surprises, the holdout, normal memory replayed',
  async run(context) {
    const { openStore } = await import('../store/index.ts');
    const { measure, measureReportText } = await import('../measure/index.ts');
    const store = openStore(context.config.home);
    try {
      const report = measure(store, { params: context.config.params, now: context.clock.iso() });
      return { json: report, text: measureReportText(report) };
    } finally {
      store.close();
    }
  },
};
