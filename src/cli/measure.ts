import { UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';

export const measureCommand = defineCommand({
  name: 'measure',
  summary:
    'the memory measures its own effect: repeat rates, prediction accuracy, surprises, the holdout, normal memory replayed; `measure replay --histories DIR` replays labelled histories through remem',
  args: ['[what]'],
  options: [
    { flags: '--histories <dir>', description: 'with replay: the folder of labelled histories (*.json)' },
    { flags: '--each-session', description: 'with replay: also sleep after every session (the ceiling)' },
    {
      flags: '--perfect-detection',
      description:
        'with replay: also give each labelled correction the detectors missed as an event (the ceiling of detection)',
    },
    {
      flags: '--jobs <n>',
      description: 'with replay: histories replayed at once',
      parse: 'int',
      range: [1, 16],
      default: 1,
    },
    {
      flags: '--shown <file>',
      description:
        'with replay: append every item shown and every repeat (caught or not, and whether its earlier correction became an episode) to this file as JSON lines',
    },
    {
      flags: '--params <json>',
      description:
        'with replay: parameters for the replayed memory, as config.json\'s "params" would hold them',
    },
  ],
  async run(context, args, options) {
    const what = args[0];
    if (what === 'replay') {
      const dir = options.histories;
      if (dir === undefined) throw new UsageError('measure replay needs --histories DIR');
      const { replayAll, replayText } = await import('../measure/index.ts');
      const binary = process.argv[1];
      if (binary === undefined) throw new UsageError('measure replay must run from the remem binary');
      const params = parseParams(options.params);
      const report = await replayAll(dir, {
        binary,
        eachSession: options.eachSession === true,
        perfectDetection: options.perfectDetection === true,
        jobs: options.jobs,
        ...(options.shown ? { shownFile: options.shown } : {}),
        ...(params ? { params } : {}),
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
});

function parseParams(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--params is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--params must be a JSON object, as config.json\'s "params"');
  return value as Record<string, unknown>;
}
