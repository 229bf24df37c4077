import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClock } from '../core/index.ts';
import { type IngestReport, listSources } from '../episodes/index.ts';
import { morningReportText, type SleepReport, sleep } from '../sleep/index.ts';
import { delegationTally, openStore } from '../store/index.ts';
import type { Context } from './command.ts';
import { formatIngestReport, runIngest } from './ingest-run.ts';
import { collectStatus, formatStatus, type Status } from './status-run.ts';

export interface NightlyResult {
  home: string;
  examples: boolean;
  ingest: IngestReport;
  sleep: SleepReport;
  morning: string;
  status: Status;
}

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));

/** The nightly job: ingest what is new, sleep, and the morning report. */
export async function runNightly(context: Context, options: { orExamples: boolean }): Promise<NightlyResult> {
  const { config } = context;
  const found = listSources(config.home, {
    now: context.clock.iso(),
    claudeDirs: [config.claudeDir],
    codexDirs: [config.codexHome],
    eventFiles: [],
  });
  const examples = options.orExamples && found.length === 0;
  const home = examples ? join(config.home, 'demo') : config.home;
  const flags = examples
    ? {
        claude: [join(examplesDir, 'claude')],
        codex: [join(examplesDir, 'codex')],
        events: [],
        fromRaw: false,
      }
    : { claude: [], codex: [], events: [], fromRaw: false };
  const ingest = await runIngest(context, flags, home);
  const store = openStore(home);
  try {
    const nightConfig = examples ? { ...config, home } : config;
    // The bundled sessions are replayed as of the night after the last of them, or they would have faded.
    const clock = examples && !config.now ? createClock(nightAfter(store)) : context.clock;
    const report = await sleep(store, nightConfig, clock);
    const morning = morningReportText(report, delegationTally(store.db));
    return { home, examples, ingest, sleep: report, morning, status: collectStatus(home) };
  } finally {
    store.close();
  }
}

function nightAfter(store: ReturnType<typeof openStore>): string | undefined {
  const row = store.db.prepare('SELECT MAX(happened_at) AS last FROM episodes').get() as {
    last: string | null;
  };
  if (!row.last) return undefined;
  const next = new Date(row.last);
  next.setUTCDate(next.getUTCDate() + 1);
  next.setUTCHours(4, 0, 0, 0);
  return next.toISOString();
}

export function formatNightly(result: NightlyResult): string {
  const lines: string[] = [];
  if (result.examples) {
    lines.push(
      'No agent transcripts on this machine yet; reading the bundled example sessions instead',
      `(their memory is kept apart, in ${result.home}).`,
      '',
    );
  }
  lines.push(formatIngestReport(result.ingest), '', result.morning, formatStatus(result.status));
  return lines.join('\n');
}
