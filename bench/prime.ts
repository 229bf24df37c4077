/**
 * Wall time of a `remem prime` process on a prompt payload, with 5k lessons and 100k episodes in the
 * store, as a ratio to `node -e 0` measured in the same run. Aim: ≤ 1.3.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePrimeIndex } from '../src/truth/index.ts';
import { fillStore } from './_store.ts';

const binary = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'remem.js');

function timeRuns(args: string[], input: string, env: NodeJS.ProcessEnv, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`exit ${result.status}: ${result.stderr}`);
  }
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(args: string[]): Promise<void> {
  const runs = Number(args[0] ?? 21);
  const home = mkdtempSync(join(tmpdir(), 'remem-bench-prime-'));
  try {
    const store = fillStore(home, { lessons: 5000, episodes: 100_000 });
    writePrimeIndex(store, new Date().toISOString(), 256);
    store.close();
    const env = { PATH: process.env['PATH'], HOME: home, REMEM_HOME: home, REMEM_HOLDOUT: '0' };
    const payload = (i: number) =>
      JSON.stringify({
        session_id: `bench-${i}`,
        transcript_path: '/dev/null',
        cwd: '/home/dev/p1',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'the deploy failed again because the migration ran before the schema cache was built',
      });
    timeRuns(['-e', '0'], '', env, 3);
    timeRuns([binary, 'prime'], payload(0), env, 3);
    const floor: number[] = [];
    const prime: number[] = [];
    // Interleaved, so both see the same machine.
    for (let i = 0; i < runs; i++) {
      floor.push(...timeRuns(['-e', '0'], '', env, 1));
      prime.push(...timeRuns([binary, 'prime'], payload(i), env, 1));
    }
    const result = spawnSync(process.execPath, [binary, 'prime'], {
      input: payload(999),
      env,
      encoding: 'utf8',
    });
    console.log(`store: 5,000 lessons, 100,000 episodes; ${runs} runs each, interleaved`);
    console.log(`node -e 0:   median ${median(floor).toFixed(1)} ms`);
    console.log(
      `remem prime: median ${median(prime).toFixed(1)} ms (answered ${result.stdout.length > 0 ? 'with context' : 'silently'})`,
    );
    console.log(`ratio: ${(median(prime) / median(floor)).toFixed(2)}  (aim ≤ 1.3)`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
