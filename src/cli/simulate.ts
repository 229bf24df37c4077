import { UsageError } from '../core/index.ts';
import { defineCommand } from './command.ts';

export const simulateCommand = defineCommand({
  name: 'simulate',
  summary: 'gossip among N in-process memories with real keys and records: rounds until all have a lesson',
  args: ['<what>'],
  options: [
    { flags: '--agents <n>', description: 'how many memories', parse: 'int' },
    {
      flags: '--fanout <k>',
      description: 'peers each memory pulls from per round (default: params.gossip.fanout, 3)',
      parse: 'int',
    },
    { flags: '--seed <s>', description: 'the random seed', parse: 'int', default: 1 },
  ],
  async run(context, args, options) {
    if (args[0] !== 'gossip') throw new UsageError(`simulate: unknown simulation ${args[0]} (gossip)`);
    const agents = options.agents;
    if (agents === undefined || agents < 5) throw new UsageError('simulate gossip needs --agents N, N ≥ 5');
    // The fanout `remem run` pulls with, unless told: the simulation measures the memory as configured.
    const fanout = options.fanout ?? context.config.params.gossip.fanout;
    if (fanout < 1) throw new UsageError('--fanout is at least 1');
    const { simulateGossip, renderSimulation } = await import('../transport/index.ts');
    const row = simulateGossip({ agents, fanout, seed: options.seed });
    return { json: row, text: renderSimulation([row]) };
  },
});
