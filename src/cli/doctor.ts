import { percentile } from '../core/index.ts';
import { defineCommand } from './command.ts';

export const doctorCommand = defineCommand({
  name: 'doctor',
  summary: "what is wired, what ran last and when, the store's health, the hooks' latencies and failures",
  async run(context) {
    const [
      setup,
      { openStore, lastIngestRun, lastSleep, quickCheck, rawFileSources },
      { readHookTimings },
      { formatSources },
    ] = await Promise.all([
      import('../setup/index.ts'),
      import('../store/index.ts'),
      import('../prime/index.ts'),
      import('./status-run.ts'),
    ]);
    const wiring = setup.inspectWiring(setup.setupEnvFrom(context.config), setup.createProcessRunner());
    const store = openStore(context.config.home);
    let health: string;
    let ingest: unknown;
    let slept: { at: string; space: string } | null;
    let schema: number;
    let sources: ReturnType<typeof rawFileSources>;
    let holdout: import('../measure/index.ts').HoldoutSummary;
    const { holdoutSummary, holdoutLines } = await import('../measure/index.ts');
    try {
      sources = rawFileSources(store.db);
      holdout = holdoutSummary(store, context.config.params, context.config.holdout);
      health = quickCheck(store.db);
      ingest = lastIngestRun(store.db) ?? null;
      const last = lastSleep(store.db);
      slept = last ? { at: last.at, space: last.space } : null;
      schema = store.schemaVersion;
    } finally {
      store.close();
    }
    const timings = readHookTimings(context.config.home).slice(-500);
    const ms = timings.map((timing) => timing.ms);
    const hooks = {
      recent: timings.length,
      p50: percentile(ms, 0.5),
      p95: percentile(ms, 0.95),
      max: ms.length ? Math.max(...ms) : null,
      failures: timings.filter((timing) => timing.outcome === 'failed' || timing.outcome === 'timeout')
        .length,
    };
    const report = {
      home: context.config.home,
      schema,
      health,
      lastIngest: ingest,
      lastSleep: slept,
      sources,
      wiring,
      hooks,
      holdout,
    };
    const lines = [
      `Memory: ${context.config.home} (schema ${schema}); store check: ${health}`,
      `Last ingest: ${(ingest as { finishedAt?: string } | null)?.finishedAt ?? 'never'}; last sleep: ${slept ? `${slept.at} (${slept.space})` : 'never'}`,
      ...formatSources(sources),
      hooks.recent === 0
        ? 'Hooks: none logged since the last run (each `remem run` moves their log into the audit)'
        : `Hooks (the last ${hooks.recent} logged): p50 ${hooks.p50 ?? '—'} ms, p95 ${hooks.p95 ?? '—'} ms, max ${hooks.max ?? '—'} ms, ${hooks.failures} failed or timed out`,
      ...holdoutLines(holdout),
      'Wiring:',
      ...wiring.map(
        (item) =>
          `  ${item.agent.padEnd(15)} ${item.installed ? (item.wired ? 'wired' : 'installed, not wired') : 'not installed'}${item.details.length ? ` (${item.details.join('; ')})` : ''}`,
      ),
    ];
    return { json: report, text: lines.join('\n') };
  },
});
