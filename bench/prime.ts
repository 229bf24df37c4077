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
import { median } from './_generate.ts';
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
    const http = await runHttp(home, 220);
    console.log(
      `HTTP hook (remem serve, 200 requests after 20 to warm): p50 ${http.p50.toFixed(2)} ms, p99 ${http.p99.toFixed(2)} ms  (aim p50 ≤ 5 ms)`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The same prime as an HTTP hook against `remem serve` (`remem setup --http`): the store stays open and
 * warm, so a request costs only the work itself. Aim: p50 ≤ 5 ms.
 */
export async function runHttp(home: string, requests: number): Promise<{ p50: number; p99: number }> {
  const [{ createApiApp }, { serve }, { openStore }, { resolveConfig }] = await Promise.all([
    import('../src/api/index.ts'),
    import('@hono/node-server'),
    import('../src/store/index.ts'),
    import('../src/core/index.ts'),
  ]);
  const store = openStore(home);
  const config = resolveConfig({ HOME: home, REMEM_HOME: home, REMEM_HOLDOUT: '0' });
  const token = 't'.repeat(64);
  const app = createApiApp({ store, config, token, now: () => new Date().toISOString() });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const body = JSON.stringify({
      session_id: `http-${i}`,
      cwd: '/home/dev/p1',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'the deploy failed again because the migration ran before the schema cache was built',
    });
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/hooks/prime`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    await response.text();
    times.push(performance.now() - started);
  }
  server.close();
  store.close();
  const sorted = times.slice(20).sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)]!, p99: sorted[Math.floor(sorted.length * 0.99)]! };
}
