/**
 * Recall in-process over 100k episodes and 5k lessons: p50 and p99 of one query, the index loaded once
 * (as `remem serve` and the MCP server keep it). The floor: the bare dot products over the same vectors,
 * in the same run. Aim: p50 ≤ 20 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, resolveConfig } from '../src/core/index.ts';
import { hashedSpace } from '../src/embed/index.ts';
import { loadRecallIndex, rankRecall } from '../src/recall/index.ts';
import { visibleToAgent } from '../src/truth/index.ts';
import { fillStore } from './_store.ts';

const queries = [
  'deploy failed migration schema',
  'pnpm install lint error',
  'redis cache timeout retry',
  'the token expired in the auth header',
  'vitest worker queue release',
];

/** The value at a share of the way through the timings (`percentile`; there is always at least one). */
const at = (values: number[], share: number) => percentile(values, share)!;

export async function run(args: string[]): Promise<void> {
  const rounds = Number(args[0] ?? 200);
  const home = mkdtempSync(join(tmpdir(), 'remem-bench-recall-'));
  try {
    const store = fillStore(home, { lessons: 5000, episodes: 100_000 });
    const config = resolveConfig({ HOME: home, REMEM_HOME: home });
    const space = hashedSpace(config.params);
    let started = performance.now();
    const scope = { project: '/home/dev/p1', allProjects: true };
    const visible = visibleToAgent(store.db, { now: '2026-06-02T00:00:00.000Z', scope });
    const index = loadRecallIndex(store.db, space, visible, scope, config.params);
    const loadMs = performance.now() - started;
    const vectors = queries.map((query) => space.embedSync!(query));
    const times: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const query = vectors[i % vectors.length]!;
      started = performance.now();
      let best = -1;
      const { matrix, dims } = index;
      for (let row = 0; row < index.items.length; row++) {
        let sum = 0;
        for (let d = 0; d < dims; d++) sum += matrix[row * dims + d]! * query[d]!;
        if (sum > best) best = sum;
      }
      floors.push(performance.now() - started);
      started = performance.now();
      rankRecall(index, query, { k: 5, now: '2026-06-02T00:00:00.000Z', params: config.params });
      times.push(performance.now() - started);
    }
    store.close();
    console.log(
      `index: ${index.items.length} items (5,000 lessons, 100,000 episodes), loaded once in ${loadMs.toFixed(0)} ms`,
    );
    console.log(`floor (dot products only): p50 ${at(floors, 0.5).toFixed(2)} ms`);
    console.log(
      `recall: p50 ${at(times, 0.5).toFixed(2)} ms, p99 ${at(times, 0.99).toFixed(2)} ms  (aim p50 ≤ 20 ms); ratio to floor ${(at(times, 0.5) / at(floors, 0.5)).toFixed(2)}`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
