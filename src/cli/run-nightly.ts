import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClock } from '../core/index.ts';
import { type IngestReport, listSources } from '../episodes/index.ts';
import { drainPrimeLogs } from '../prime/index.ts';
import { type RenderReport, renderMemory } from '../render/index.ts';
import { syncLayers } from '../share/index.ts';
import { morningReportText, type SleepReport, sleep, writeAtomically } from '../sleep/index.ts';
import {
  acquireLock,
  delegationTally,
  latestHappenedAt,
  listPeers,
  openStore,
  type Store,
} from '../store/index.ts';
import type { NightlyPull } from '../transport/index.ts';
import { refreshViewsEmbedding } from '../truth/index.ts';
import type { Context } from './command.ts';
import { formatIngestReport, runIngest } from './ingest-run.ts';
import { collectStatus, formatStatus, type Status } from './status-run.ts';
import { wiredForRender } from './wired.ts';

export interface NightlyResult {
  home: string;
  examples: boolean;
  ingest: IngestReport;
  hooks: { injections: number; rows: number };
  /** What gossip pulled from peers before sleep; null when this memory knows no peer. */
  gossip: NightlyPull | null;
  sleep: SleepReport;
  render: RenderReport | null;
  /** The agents the person wired with `remem setup`: the only ones written for. */
  wired: string[];
  lessonsFile: number;
  /** What could not be read or embedded tonight (a layer's file, a model that did not answer). */
  problems: string[];
  morning: string;
  status: Status;
}

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));

/**
 * The nightly job: ingest what is new, move the hooks' logs into the audit, pull from peers, sleep, write
 * lessons.jsonl, render where agents load memory, and the morning report. One run at a time.
 */
export async function runNightly(context: Context, options: { orExamples: boolean }): Promise<NightlyResult> {
  const { config } = context;
  // Whether there is anything to read is asked only when the examples could stand in: listing reads the agents'
  // own stores (Cursor's, OpenCode's) whole, and the ingest below lists them again.
  const examples =
    options.orExamples &&
    listSources(config.home, {
      now: context.clock.iso(),
      claudeDirs: [config.claudeDir],
      codexDirs: [config.codexHome],
      geminiDirs: [config.geminiDir],
      opencodeDirs: [config.opencodeDir],
      cursorDirs: [config.cursorDir],
      vscodeDirs: [config.vscodeDir],
      eventFiles: [],
    }).length === 0;
  const home = examples ? join(config.home, 'demo') : config.home;
  const release = acquireLock(home, 'run');
  try {
    // No folder named: the agents' own folders are found. The examples name theirs.
    const flags = {
      claude: examples ? [join(examplesDir, 'claude')] : [],
      codex: examples ? [join(examplesDir, 'codex')] : [],
      gemini: [],
      opencode: [],
      cursor: [],
      vscode: [],
      events: [],
      import: [],
      fromRaw: false,
    };
    const ingest = await runIngest(context, flags, home);
    const store = openStore(home);
    try {
      const hooks = drainPrimeLogs(store);
      // Before sleep, so what peers gave tonight predicts from tonight on. The examples' memory pulls nothing.
      const gossip = examples ? null : await pullFromPeers(context, store);
      const nightConfig = examples ? { ...config, home } : config;
      // The bundled sessions are replayed as of the night after the last of them, or they would have faded.
      const clock = examples && !config.now ? createClock(nightAfter(store)) : context.clock;
      const report = await sleep(store, nightConfig, clock);
      // Each layer's file is read again, so what agents see tonight is what the files say now.
      const layers = syncLayers(store, clock.iso(), { maxChars: config.params.sharing.maxChars });
      // The examples stay in their own home: they are never written into a real agent's memory folder.
      // Only where the person wired an agent with `remem setup`: nothing else outside REMEM_HOME is written.
      const wired = await wiredForRender(config.home);
      const render = examples ? null : renderMemory(store, config, { now: clock.iso(), wired });
      // After render: a lesson file the owner deleted is a veto, and the views must not show it again.
      const views = await refreshViewsEmbedding(store, clock.iso(), config);
      const lessonsFile = views.lessons;
      const problems = [
        ...layers.flatMap((layer) => (layer.problem ? [`layer ${layer.source}: ${layer.problem}`] : [])),
        ...(views.problem ? [views.problem] : []),
      ];
      // The night's report, with what the holdout has shown so far (the comparison reads the whole history,
      // so the nightly job adds it, not every sleep).
      const { holdoutLines, holdoutSummary } = await import('../measure/index.ts');
      const holdout = holdoutLines(holdoutSummary(store, config.params, config.holdout));
      const morning = `${morningReportText(report, delegationTally(store.db)).trimEnd()}\n\n${holdout.join('\n')}\n`;
      writeAtomically(join(store.home, 'morning.md'), morning);
      return {
        home,
        examples,
        ingest,
        hooks,
        gossip,
        sleep: report,
        render,
        wired: [...wired],
        lessonsFile,
        problems,
        morning,
        status: collectStatus(home),
      };
    } finally {
      store.close();
    }
  } finally {
    release();
  }
}

async function pullFromPeers(context: Context, store: Store): Promise<NightlyPull | null> {
  const { config } = context;
  if (config.peers.length === 0 && listPeers(store.db).length === 0) return null;
  const [{ pullFromKnownPeers }, { loadOrCreateIdentity }] = await Promise.all([
    import('../transport/index.ts'),
    import('../protocol/index.ts'),
  ]);
  return pullFromKnownPeers(store, loadOrCreateIdentity(config.home), {
    peers: config.peers,
    params: config.params,
    now: context.clock.iso(),
  });
}

function nightAfter(store: Store): string | undefined {
  const last = latestHappenedAt(store.db);
  if (!last) return undefined;
  const next = new Date(last);
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
  lines.push(formatIngestReport(result.ingest), '');
  if (result.hooks.rows)
    lines.push(`Hooks: ${result.hooks.rows} logged moments, ${result.hooks.injections} primes audited.`, '');
  if (result.gossip) lines.push(...formatGossip(result.gossip), '');
  lines.push(result.morning);
  if (result.render) {
    for (const target of result.render.targets)
      lines.push(`Rendered ${target.files} lessons into ${target.folder}`);
    if (result.render.agentsFile)
      lines.push(`Rendered the personal lessons into ${result.render.agentsFile}`);
    for (const veto of result.render.vetoed) lines.push(`Vetoed: the owner deleted ${veto.file}`);
  }
  // Not the count of lessons kept: those that reach no agent (held, merged, archived) are not in it.
  lines.push(`lessons.jsonl: the ${result.lessonsFile} lessons agents may be shown now`);
  if (!result.examples && result.wired.length === 0)
    lines.push(
      'Nothing was written where agents read: no agent is wired yet. `remem setup` wires them (it lists what it will write, and `remem setup --remove` takes it all out).',
    );
  for (const problem of result.problems) lines.push(`Not done: ${problem}`);
  lines.push('', formatStatus(result.status));
  // What to do next, said once at the end, where a first run's reader looks.
  lines.push(
    '',
    result.examples
      ? 'Next: work with your agent as usual, then run `npm start` (or `remem run`) again to learn from your own sessions; `remem setup` wires your agents so that they are shown what was learned.'
      : 'Next: `remem lessons` lists what was learned (`remem forget ID` vetoes one); `remem setup` wires your agents, if you have not; `remem doctor` checks it all.',
  );
  return lines.join('\n');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function formatGossip(pull: NightlyPull): string[] {
  const lines = [`Peers: pulled from ${pull.chosen.length} of ${plural(pull.known, 'known peer')}.`];
  for (const { peer, reason } of pull.unusable) lines.push(`  ${peer}: not used, ${reason}`);
  for (const report of pull.peers) {
    if (!report.ok) {
      lines.push(`  ${report.peer}: unreachable, ${report.error}; skipped tonight`);
      continue;
    }
    lines.push(
      `  ${report.peer}: ${plural(report.origins, 'newer file')}, ${plural(report.accepted, 'record')} taken, ${report.refused.length} refused`,
    );
    for (const refusal of report.refused)
      lines.push(
        `    refused ${refusal.origin}${refusal.line ? `:${refusal.line}` : ''} ${refusal.code}: ${refusal.reason}`,
      );
  }
  const t = pull.totals;
  if (pull.peers.some((report) => report.ok))
    lines.push(
      `Taken from peers: ${plural(t.received, 'new lesson')} (candidates, pending review), ${t.updated} updated, ${t.corroborated} corroborated, ${plural(t.confirmations, 'confirmation')}, ${plural(t.revocations, 'revocation')} (${t.dropped} dropped).`,
    );
  if (pull.learned.length)
    lines.push(`Learned ${plural(pull.learned.length, 'peer')}: ${pull.learned.join(', ')}`);
  if (pull.forgotten.length)
    lines.push(
      `Forgot ${plural(pull.forgotten.length, 'peer')} that kept failing: ${pull.forgotten.join(', ')}`,
    );
  return lines;
}
