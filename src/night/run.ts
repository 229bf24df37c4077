import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Clock, type Config, createClock } from '../core/index.ts';
import { type IngestReport, listSources } from '../episodes/index.ts';
import { holdoutLines, holdoutSummary } from '../measure/index.ts';
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
import { wiredForRender } from './wired.ts';

export interface NightResult {
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
}

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));

/** The folders the nightly ingest reads: those named (the bundled examples), or null for every agent found. */
export type NightFolders = { claude: string[]; codex: string[] } | null;

export interface NightOptions {
  config: Config;
  clock: Clock;
  /** With no agent transcripts on this machine, read the bundled example sessions into a memory of their own. */
  orExamples: boolean;
  /** The ingest, as the caller runs it (with its progress display): into `home`, from `folders`. */
  ingest(folders: NightFolders, home: string): Promise<IngestReport>;
}

/**
 * The nightly job: ingest what is new, move the hooks' logs into the audit, pull from peers, sleep, write
 * lessons.jsonl, render where agents load memory, and the morning report. One run at a time.
 */
export async function runNight(options: NightOptions): Promise<NightResult> {
  const { config } = options;
  // Whether there is anything to read is asked only when the examples could stand in: listing reads the agents'
  // own stores (Cursor's, OpenCode's) whole, and the ingest below lists them again.
  const examples =
    options.orExamples &&
    listSources(config.home, {
      now: options.clock.iso(),
      claudeDirs: [config.claudeDir],
      codexDirs: [config.codexHome],
      geminiDirs: [config.geminiDir],
      opencodeDirs: [config.opencodeDir],
      cursorDirs: [config.cursorDir],
      vscodeDirs: [config.vscodeDir],
      continueDirs: [config.continueDir],
      aiderPaths: [...config.aiderPaths],
      specstoryPaths: [...config.specstoryPaths],
      transcriptPaths: [...config.transcriptPaths],
      eventFiles: [],
    }).length === 0;
  const home = examples ? join(config.home, 'demo') : config.home;
  const release = acquireLock(home, 'run');
  try {
    const folders = examples
      ? { claude: [join(examplesDir, 'claude')], codex: [join(examplesDir, 'codex')] }
      : null;
    const ingest = await options.ingest(folders, home);
    const store = openStore(home);
    try {
      const hooks = drainPrimeLogs(store);
      // Before sleep, so what peers gave tonight predicts from tonight on. The examples' memory pulls nothing.
      const gossip = examples ? null : await pullFromPeers(config, options.clock.iso(), store);
      const nightConfig = examples ? { ...config, home } : config;
      // The bundled sessions are replayed as of the night after the last of them, or they would have faded.
      const clock = examples && !config.now ? createClock(nightAfter(store)) : options.clock;
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
      };
    } finally {
      store.close();
    }
  } finally {
    release();
  }
}

async function pullFromPeers(config: Config, now: string, store: Store): Promise<NightlyPull | null> {
  if (config.peers.length === 0 && listPeers(store.db).length === 0) return null;
  const [{ pullFromKnownPeers }, { loadOrCreateIdentity }] = await Promise.all([
    import('../transport/index.ts'),
    import('../protocol/index.ts'),
  ]);
  return pullFromKnownPeers(store, loadOrCreateIdentity(config.home), {
    peers: config.peers,
    params: config.params,
    now,
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
