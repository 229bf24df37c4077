/**
 * Gossip at scale: rounds until a lesson, its three confirmations and its revocation reach every one of
 * N in-process memories (real keys, records and verification), at N = 1,000, 10,000 and 100,000, fanout 3.
 * The aim is log2(N) + 3 rounds. `--agents N` (repeatable), `--fanout K` and `--seed S` change the run.
 */

import { defaultParams } from '../src/core/index.ts';
import { renderSimulation, type SimulationRow, simulateGossip } from '../src/transport/index.ts';

function option(args: string[], name: string): string[] {
  const values: string[] = [];
  args.forEach((arg, i) => {
    if (arg === name && args[i + 1] !== undefined) values.push(args[i + 1]!);
  });
  return values;
}

export async function run(args: string[]): Promise<void> {
  const chosen = option(args, '--agents').map(Number);
  const sizes = chosen.length > 0 ? chosen : [1_000, 10_000, 100_000];
  const fanout = Number(option(args, '--fanout')[0] ?? defaultParams.gossip.fanout);
  const seed = Number(option(args, '--seed')[0] ?? 1);
  const rows: SimulationRow[] = [];
  for (const agents of sizes) {
    rows.push(simulateGossip({ agents, fanout, seed }));
    console.error(`  ${agents.toLocaleString('en-US')} memories done`);
  }
  console.log(renderSimulation(rows));
  const over = rows.filter((row) =>
    [row.rounds.lesson, row.rounds.common, row.rounds.revoked].some((r) => r === null || r > row.bound),
  );
  console.log(
    over.length === 0
      ? '\nEvery phase finished within log2(N) + 3 rounds.'
      : `\nOver the aim at N = ${over.map((row) => row.agents).join(', ')}.`,
  );
}
