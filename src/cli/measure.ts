import { UsageError } from '../core/index.ts';
import type { CommandSpec } from './command.ts';

export const measureCommand: CommandSpec = {
  name: 'measure',
  summary:
    'the memory measures its own effect: repeat rates, prediction accuracy, surprises, the holdout, normal memory replayed; `measure replay --histories DIR` replays labelled histories through remem',
  args: ['[what]'],
  options: [
    { flags: '--histories <dir>', description: 'with replay: the folder of labelled histories (*.json)' },
    { flags: '--each-session', description: 'with replay: also sleep after every session (the ceiling)' },
  ],
  async run(context, args, options) {
    const what = args[0];
    if (what === 'replay') {
      const dir = options['histories'] as string | undefined;
      if (dir === undefined) throw new UsageError('measure replay needs --histories DIR');
      const { replayAll, replayText } = await import('../measure/index.ts');
      const binary = process.argv[1];
      if (binary === undefined) throw new UsageError('measure replay must run from the remem binary');
      const report = await replayAll(dir, {
        binary,
        eachSession: options['eachSession'] === true,
        onProgress: (line) => context.stderr(`remem: ${line}`),
      });
      return { json: report, text: replayText(report) };
    }
    if (what !== undefined) throw new UsageError(`measure knows only "replay", not "${what}"`);
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
