import { readFileSync } from 'node:fs';
import { RememError, UsageError } from '../core/index.ts';
import type { RetryNotice, RunProgress } from '../experiment/index.ts';
import { type Context, defineCommand } from './command.ts';

const RUNS = ['behaviour', 'mechanism', 'loop', 'boundary'] as const;

interface Reporter {
  progress(progress: RunProgress): void;
  retry(notice: RetryNotice): void;
  stop(): void;
}

/** A progress bar on a terminal, with the retries written above it; plain lines on a pipe. */
async function reporterFor(context: Context, label: string): Promise<Reporter> {
  const retryLine = (notice: RetryNotice) =>
    `${notice.model}: ${notice.reason}; trying again in ${Math.round(notice.waitMs / 100) / 10} s (try ${notice.attempt + 1} of ${notice.tries})`;
  if (!context.interactive || context.json) {
    return {
      progress: () => {},
      retry: (notice) => context.stderr(`remem: ${retryLine(notice)}`),
      stop: () => {},
    };
  }
  const { MultiBar, Presets } = await import('cli-progress');
  const bars = new MultiBar(
    {
      format: `${label} [{bar}] {value}/{total} replies ({kept} new, {skipped} kept before)`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    Presets.shades_classic,
  );
  let bar: ReturnType<typeof bars.create> | null = null;
  return {
    progress({ done, total, kept, skipped }) {
      bar ??= bars.create(total, 0, { kept: 0, skipped: 0 });
      bar.update(done, { kept, skipped });
    },
    retry: (notice) => bars.log(`${retryLine(notice)}\n`),
    stop: () => bars.stop(),
  };
}

function shareOf(value: unknown): number {
  const share = Number(value);
  if (!Number.isFinite(share) || share < 0 || share >= 1) {
    throw new UsageError(`--boundary-share is a share from 0 up to (not including) 1, got ${String(value)}`);
  }
  return share;
}

export const experimentCommand = defineCommand({
  name: 'experiment',
  summary:
    'controlled experiments against any OpenAI-compatible server: behaviour, mechanism, loop, boundary; `pairs` writes preference pairs; `show` the tables',
  args: ['<name>'],
  options: [
    { flags: '--base-url <url>', description: 'the chat server', default: 'http://127.0.0.1:11434/v1' },
    { flags: '--model <model>', description: 'a model to run (repeat for several)', parse: 'list' },
    {
      flags: '--runs <n>',
      description: 'runs per situation, setting and arm (behaviour, mechanism 3; loop, boundary 2)',
      parse: 'int',
    },
    { flags: '--situations <n>', description: 'only the first N situations', parse: 'int' },
    {
      flags: '--timeout-ms <ms>',
      description: 'how long one answer may take',
      parse: 'int',
      default: 300_000,
    },
    { flags: '--tries <n>', description: 'tries per request before the run stops', parse: 'int', default: 5 },
    {
      flags: '--retry-ms <ms>',
      description: 'the first wait between tries, doubled each time',
      parse: 'int',
      default: 2000,
    },
    {
      flags: '--api-key-file <file>',
      description: 'a file holding the bearer token, for servers that want one',
    },
    { flags: '--out <file>', description: 'pairs: where to write the JSONL' },
    { flags: '--boundary-share <share>', description: 'pairs: the share of boundary pairs', default: '0.3' },
  ],
  async run(context, args, options) {
    const name = args[0];
    const experiment = await import('../experiment/index.ts');
    const home = context.config.home;
    if (name === 'pairs') {
      const out = options.out;
      if (!out) throw new UsageError('experiment pairs needs --out FILE');
      const report = experiment.writePairs(home, { out, boundaryShare: shareOf(options.boundaryShare) });
      const text = `Wrote ${report.act + report.boundary} preference pairs to ${out} (TRL conversational format: prompt, chosen, rejected as messages): ${report.act} act, ${report.boundary} boundary of ${report.available.boundary} available${report.share === null ? '' : `, a ${Math.round(report.share * 100)}% boundary share`}.`;
      return { json: report, text };
    }
    if (name === 'show') {
      const summaries = RUNS.map((run) =>
        experiment.summarize(experiment.plans[run], experiment.readKept(home, run)),
      );
      return {
        json: { experiments: summaries },
        text: summaries
          .map((summary) => experiment.summaryText(summary, summary.experiment === 'loop'))
          .join('\n\n'),
      };
    }
    if (!RUNS.includes(name as (typeof RUNS)[number])) {
      throw new UsageError(`experiment: unknown experiment ${name} (${RUNS.join(', ')}, pairs, show)`);
    }
    const models = options.model ?? [];
    if (models.length === 0) throw new UsageError(`experiment ${name} needs --model M (repeat for several)`);
    const keyFile = options.apiKeyFile;
    let apiKey: string | undefined;
    if (keyFile) {
      try {
        apiKey = readFileSync(keyFile, 'utf8').trim();
      } catch (error) {
        throw new RememError('bad_key_file', `cannot read ${keyFile}: ${(error as Error).message}`);
      }
    }
    const runs = options.runs;
    const situations = options.situations;
    const reporter = await reporterFor(context, name!);
    try {
      const report = await experiment.runExperiment(
        home,
        {
          experiment: name as (typeof RUNS)[number],
          models,
          baseUrl: options.baseUrl,
          timeoutMs: options.timeoutMs,
          tries: Math.max(1, options.tries),
          retryMs: options.retryMs,
          now: () => context.clock.iso(),
          ...(apiKey ? { apiKey } : {}),
          ...(runs === undefined ? {} : { runs }),
          ...(situations === undefined ? {} : { situations }),
        },
        { onProgress: reporter.progress, onRetry: reporter.retry },
      );
      const text = [
        experiment.summaryText(report.summary, name === 'loop'),
        '',
        `${report.kept} replies kept by this run, ${report.skipped} kept before; every reply is in ${report.dir}.`,
      ].join('\n');
      return { json: report, text };
    } finally {
      reporter.stop();
    }
  },
});
