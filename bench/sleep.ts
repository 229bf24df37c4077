/**
 * One sleep over 25k, 50k and 100k synthetic episodes: the times, the 100k/50k ratio (aim ≤ 2.2: linear
 * in the episodes) and the 100k time (aim under 60 s on two cores). The floor, measured in the same run:
 * embedding the same texts in the hashed space, which any sleep must do once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClock, resolveConfig } from '../src/core/index.ts';
import { hashedVector } from '../src/embed/index.ts';
import { sleep } from '../src/sleep/index.ts';
import { openStore } from '../src/store/index.ts';
import { median, seeded } from './_generate.ts';

const vocabulary =
  'install migrate deploy branch merge test lint build cache index query schema config token retry timeout import export parser router handler worker queue release docker pnpm npm yarn python pip vitest jest webpack vite postgres redis sqlite kafka nginx auth session cookie header payload staging production rollback feature flag metric alert dashboard billing invoice customer order cart search ranking embedding vector prompt model agent hook proxy memory lesson'.split(
    ' ',
  );

function words(random: () => number, n: number): string {
  return Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
}

/** Texts as a long-used memory meets them: a few hundred recurring surprises, reworded, and many one-offs. */
function texts(
  count: number,
  seed: number,
): { kind: 'error' | 'correction' | 'surprise'; text: string; project: string; tool: string }[] {
  const random = seeded(seed);
  const themes = Array.from({ length: 400 }, () => words(random, 10));
  const kinds = ['error', 'error', 'correction', 'surprise'] as const;
  return Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    const recurring = random() < 0.6;
    const base = recurring ? themes[Math.floor(random() * themes.length)]! : words(random, 10);
    const text = recurring ? `${base} ${words(random, 2)}` : `${base} ${i}`;
    return { kind, text, project: `/home/dev/p${i % 20}`, tool: ['Bash', 'Edit', 'Read'][i % 3]! };
  });
}

interface Once {
  ms: number;
  /** CPU time of this process over the sleep: the figure that holds when other work shares the cores. */
  cpuMs: number;
  floorMs: number;
  lessons: number;
}

async function once(count: number): Promise<Once> {
  const home = mkdtempSync(join(tmpdir(), 'remem-bench-sleep-'));
  try {
    const store = openStore(home);
    const rows = texts(count, 3);
    const start = Date.UTC(2026, 0, 1);
    store.db.transaction(() => {
      const insert = store.db.prepare(
        `INSERT INTO episodes (key, kind, origin, agent, session, project, happened_at, recorded_at, title, text, said, detail, touched_at)
         VALUES (?, ?, 'transcript', 'claude-code', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      rows.forEach((row, i) => {
        // Spread over the 60 days before the night, so nothing has faded yet.
        const at = new Date(start + Math.floor((i / rows.length) * 60 * 86_400_000)).toISOString();
        insert.run(
          `k${i}`,
          row.kind,
          `s${i % 5000}`,
          row.project,
          at,
          at,
          row.text.slice(0, 40),
          row.text,
          row.kind === 'correction' ? row.text : null,
          JSON.stringify({ tool: row.tool }),
          at,
        );
      });
    })();
    let started = performance.now();
    for (const row of rows) hashedVector(row.text, 256);
    const floorMs = performance.now() - started;
    const config = resolveConfig({ HOME: home, REMEM_HOME: home });
    started = performance.now();
    const cpu = process.cpuUsage();
    const report = await sleep(store, config, createClock(new Date(start + 61 * 86_400_000).toISOString()));
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    store.close();
    return { ms, cpuMs: (used.user + used.system) / 1000, floorMs, lessons: report.learned.length };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Each size once a round, for `--rounds N` rounds (3 by default), the order turned round every other round: a
 * shared machine's speed drifts over a minute, so the 100k/50k ratio is taken within each round, from runs made
 * side by side, and the median of the rounds' ratios is reported.
 */
export async function run(args: string[]): Promise<void> {
  const at = args.indexOf('--rounds');
  const rounds = at >= 0 ? Number(args[at + 1]) : 3;
  const given = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const sizes = given.length ? given.map(Number) : [25_000, 50_000, 100_000];
  const results = new Map<number, Once[]>(sizes.map((size) => [size, []]));
  for (let round = 0; round < rounds; round++) {
    for (const size of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      const result = await once(size);
      results.get(size)!.push(result);
      console.log(
        `round ${round + 1}, ${size.toLocaleString('en')} episodes: sleep ${(result.ms / 1000).toFixed(1)} s (CPU ${(result.cpuMs / 1000).toFixed(1)} s), ${result.lessons} lessons learned; floor (embedding alone) ${(result.floorMs / 1000).toFixed(2)} s, ratio ${(result.ms / result.floorMs).toFixed(1)}`,
      );
    }
  }
  for (const size of sizes) {
    const runs = results.get(size)!;
    console.log(
      `${size.toLocaleString('en')} episodes, median of ${runs.length}: sleep ${(median(runs.map((r) => r.ms)) / 1000).toFixed(1)} s (CPU ${(median(runs.map((r) => r.cpuMs)) / 1000).toFixed(1)} s)`,
    );
  }
  const half = results.get(50_000);
  const full = results.get(100_000);
  if (half?.length && full?.length) {
    const wall = full.map((run, round) => run.ms / half[round]!.ms);
    const cpu = full.map((run, round) => run.cpuMs / half[round]!.cpuMs);
    console.log(
      `100k/50k by round: ${wall.map((ratio) => ratio.toFixed(2)).join(', ')} wall; ${cpu.map((ratio) => ratio.toFixed(2)).join(', ')} CPU`,
    );
    console.log(
      `100k/50k: ${median(wall).toFixed(2)} wall, ${median(cpu).toFixed(2)} CPU, median of ${wall.length} rounds (aim ≤ 2.2); 100k: ${(median(full.map((r) => r.ms)) / 1000).toFixed(1)} s wall, ${(median(full.map((r) => r.cpuMs)) / 1000).toFixed(1)} s CPU (aim < 60 s); load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
  }
}
