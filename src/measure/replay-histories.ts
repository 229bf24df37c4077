import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RememError } from '../core/index.ts';
import { headOf, type LabelledCorrection, type LabelledHistory, wasShown } from './histories.ts';

/**
 * The person never says it twice: each labelled history replayed through the `remem` binary as an agent meets
 * it, in a temporary home with the holdout off and the clock at each turn. A session is written as a Claude Code
 * transcript of the project; it starts with the block `remem render` gives the project, every human turn passes
 * `remem prime` as UserPromptSubmit and every agent turn a human answers passes it as Stop; when it ends, what
 * the SessionEnd hook starts (`remem ingest --learn`) runs to the end, and when the day changes, the nightly job
 * (`remem run`). `eachSession` also sleeps after every session: the ceiling of consolidating at once.
 * `perfectDetection` also hands each session's labelled corrections the detectors missed to `remem ingest --events`
 * at its end: the ceiling of detecting every correction, which tells what the learning loop does with what it is
 * given.
 */
export interface ReplayOptions {
  /** The `remem` launcher to spawn (bin/remem.js). */
  binary: string;
  eachSession: boolean;
  /** How many most similar earlier messages each keep-everything baseline puts back. */
  ks?: readonly number[];
  /** The labelled corrections the detectors missed, given as events at each session's end. */
  perfectDetection?: boolean;
  /** Parameters written into the temporary home's config.json (`params`), to measure a change before making it. */
  params?: Record<string, unknown>;
  /**
   * Where to append, as JSON lines, every item shown and every repeat: whether it was caught, and whether its earlier
   * correction became an episode.
   */
  shownFile?: string;
  /** Histories replayed at once (each in its own home); 1 by default. */
  jobs?: number;
  onProgress?: (line: string) => void;
}

/** The moments at which Remem puts lessons in front of the agent. */
export type Moment = 'start' | 'prompt' | 'stop';
export const moments: readonly Moment[] = ['start', 'prompt', 'stop'];

/** What one moment showed: the items it put in front of the agent, and the repeats it was first to catch. */
export type ByMoment = Record<Moment, { items: number; caught: number }>;

export interface ReplayCount {
  repeats: number;
  caught: number;
  items: number;
  perHundred: number | null;
}

export interface HistoryReplay {
  name: string;
  remem: ReplayCount & {
    soft: ReplayCount;
    earlierBecameEpisodes: number;
    earlierCorrections: number;
    byMoment: ByMoment;
  };
  baselines: (ReplayCount & { k: number })[];
  seconds: number;
}

interface Shown {
  session: string;
  turn: number;
  text: string;
  moment?: Moment;
  /** At session start: what each loaded line is (kind, times seen, strength), as `render --json` gives it. */
  items?: unknown[];
}

function emptyByMoment(): ByMoment {
  return { start: { items: 0, caught: 0 }, prompt: { items: 0, caught: 0 }, stop: { items: 0, caught: 0 } };
}

function perHundred(caught: number, items: number): number | null {
  return items === 0 ? null : Math.round((caught / items) * 10000) / 100;
}

function run(
  binary: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binary, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The text a hook's answer puts in front of the agent. */
function hookText(stdout: string): string {
  const trimmed = stdout.trim();
  if (trimmed === '') return '';
  try {
    const answer = JSON.parse(trimmed) as {
      reason?: string;
      hookSpecificOutput?: { additionalContext?: string };
    };
    return answer.hookSpecificOutput?.additionalContext ?? answer.reason ?? '';
  } catch {
    return trimmed;
  }
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

function key(session: string, turn: number): string {
  return `${session}:${turn}`;
}

/**
 * A turn's time: the session's start plus half a minute a turn, closer together when the next session starts
 * sooner (two sessions of one day can overlap in the labels' start times).
 */
function turnTime(started: string, index: number, turns: number, next: string | undefined): string {
  const start = Date.parse(started);
  const room = next === undefined ? Number.POSITIVE_INFINITY : Date.parse(next) - start - 2_000;
  const step = Math.max(0, Math.min(30_000, room / (turns + 1)));
  return new Date(start + Math.floor(index * step)).toISOString();
}

function transcriptLine(
  role: 'user' | 'assistant',
  text: string,
  at: string,
  ids: { session: string; uuid: string; parent: string | null; cwd: string },
): string {
  const message =
    role === 'user'
      ? { role: 'user', content: text }
      : { role: 'assistant', type: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' };
  return `${JSON.stringify({
    parentUuid: ids.parent,
    isSidechain: false,
    userType: 'external',
    cwd: ids.cwd,
    sessionId: ids.session,
    version: '2.1.140',
    type: role,
    message,
    uuid: ids.uuid,
    timestamp: at,
  })}\n`;
}

/** Replays one history through Remem; the keep-everything baselines are worked out beside it. */
export async function replayHistory(
  history: LabelledHistory,
  options: ReplayOptions,
): Promise<HistoryReplay> {
  const started = performance.now();
  const root = mkdtempSync(join(tmpdir(), 'remem-replay-'));
  try {
    const cwd = join(root, 'project');
    mkdirSync(cwd, { recursive: true });
    const home = join(root, 'home');
    const folder = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(folder, { recursive: true });
    const baseEnv = {
      PATH: process.env['PATH'] ?? '',
      HOME: home,
      REMEM_HOME: join(root, 'remem'),
      REMEM_HOLDOUT: '0',
    };
    if (options.params) {
      mkdirSync(baseEnv.REMEM_HOME, { recursive: true });
      writeFileSync(join(baseEnv.REMEM_HOME, 'config.json'), JSON.stringify({ params: options.params }));
    }
    const byMoment = emptyByMoment();
    const show = (item: Shown & { moment: Moment }) => {
      const count = lines(item.text).length;
      items += count;
      byMoment[item.moment].items += count;
      shown.push(item);
    };
    const remem = async (args: string[], now: string, input = '') => {
      const result = await run(options.binary, args, { ...baseEnv, REMEM_NOW: now }, input);
      if (result.code !== 0 && args[0] !== 'prime') {
        throw new RememError(
          'replay_failed',
          `remem ${args.join(' ')} (${history.name}): ${result.stderr.trim()}`,
        );
      }
      return result;
    };

    const shown: Shown[] = [];
    let items = 0;
    let lastDay: string | null = null;
    for (const [s, session] of history.sessions.entries()) {
      const day = session.started.slice(0, 10);
      if (lastDay !== null && day !== lastDay) await remem(['run'], session.started);
      lastDay = day;
      const sessionId = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
      const transcript = join(folder, `${sessionId}.jsonl`);
      // What the agent loads: the block itself (empty before there are lessons, never the note saying so).
      const rendered = await remem(
        ['render', '--format', 'prompt', '--project', cwd, '--json'],
        session.started,
      );
      const answer = JSON.parse(rendered.stdout) as { text: string; items?: unknown[] };
      show({ session: session.id, turn: -1, text: answer.text, moment: 'start', items: answer.items ?? [] });
      let parent: string | null = null;
      const turns = session.turns;
      const nextStart = history.sessions[s + 1]?.started;
      for (const [index, turn] of turns.entries()) {
        const at = turnTime(session.started, index, turns.length, nextStart);
        const uuid = `${sessionId.slice(0, 24)}${String(index).padStart(12, '0')}`;
        const base = { session_id: sessionId, cwd, transcript_path: transcript };
        if (turn.role === 'user') {
          const prime = await remem(
            ['prime'],
            at,
            JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: turn.text }),
          );
          show({ session: session.id, turn: turn.n, text: hookText(prime.stdout), moment: 'prompt' });
        }
        appendFileSync(
          transcript,
          transcriptLine(turn.role, turn.text, at, { session: sessionId, uuid, parent, cwd }),
        );
        parent = uuid;
        const next = turns[index + 1];
        if (turn.role === 'assistant' && next?.role === 'user') {
          const stop = await remem(
            ['prime'],
            at,
            JSON.stringify({ ...base, hook_event_name: 'Stop', last_assistant_message: turn.text }),
          );
          // The reminder reaches the agent at the end of its own turn, before the person answers.
          show({ session: session.id, turn: turn.n, text: hookText(stop.stdout), moment: 'stop' });
        }
      }
      const end = turnTime(session.started, turns.length, turns.length, nextStart);
      const learn = ['ingest', '--learn'];
      if (options.perfectDetection) {
        // Only what the detectors missed is handed over: a correction given twice would count as said twice.
        await remem(['ingest', '--claude', join(home, '.claude')], end);
        const found = JSON.parse(
          (await remem(['episodes', '--kind', 'correction', '--session', sessionId, '--json'], end)).stdout,
        ) as { episodes: { said?: string | null }[] };
        const detected = found.episodes.map((episode) => headOf(episode.said ?? ''));
        const events = join(root, `events-${s}.jsonl`);
        const missed = history.corrections.filter(
          (c) => c.session === session.id && !heldBy(detected, c.said),
        );
        writeFileSync(
          events,
          missed
            .map(
              (c) =>
                `${JSON.stringify({ kind: 'correction', said: c.said, cwd, session: sessionId, at: end })}\n`,
            )
            .join(''),
        );
        learn.push('--events', events, '--claude', join(home, '.claude'));
      }
      await remem(learn, end);
      if (options.eachSession) await remem(['sleep'], end);
      options.onProgress?.(`${history.name}: ${session.id} replayed (${turns.length} turns)`);
    }

    const lastStart = history.sessions.at(-1)?.started ?? new Date(0).toISOString();
    const episodes = JSON.parse(
      (await remem(['episodes', '--kind', 'correction', '--all', '--json'], lastStart)).stdout,
    ) as { episodes: { said?: string | null }[] };
    const heads = episodes.episodes.map((episode) => headOf(episode.said ?? ''));
    const becameEpisode = (first: { said: string }): boolean => heldBy(heads, first.said);
    const repeats: object[] = [];
    const { all, soft, earlier } = countRepeats(history, (correction, first) => {
      const hit = shown.find(
        (item) =>
          item.session === correction.session &&
          item.turn < correction.turn &&
          wasShown(first.said, item.text),
      );
      if (hit?.moment) byMoment[hit.moment].caught++;
      repeats.push({
        type: 'repeat',
        history: history.name,
        session: correction.session,
        turn: correction.turn,
        said: correction.said,
        first: { session: first.session, turn: first.turn, said: first.said, episode: becameEpisode(first) },
        caughtBy: hit?.moment ?? null,
      });
      return hit !== undefined;
    });
    if (options.shownFile) {
      const records = [
        ...shown.map((item) => ({ type: 'shown', history: history.name, ...item })),
        ...repeats,
      ];
      appendFileSync(options.shownFile, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    }
    const earlierBecameEpisodes = earlier.filter(becameEpisode).length;
    return {
      name: history.name,
      remem: {
        ...all,
        items,
        perHundred: perHundred(all.caught, items),
        soft: { ...soft, items, perHundred: perHundred(soft.caught, items) },
        earlierBecameEpisodes,
        earlierCorrections: earlier.length,
        byMoment,
      },
      baselines: (options.ks ?? [3, 20]).map((k) => keepEverything(history, k)),
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Repeats and catches, hard and soft apart, given whether a repeat had its first correction shown before it. */
function countRepeats(
  history: LabelledHistory,
  caught: (correction: LabelledCorrection, first: LabelledCorrection) => boolean,
): {
  all: { repeats: number; caught: number };
  soft: { repeats: number; caught: number };
  earlier: LabelledCorrection[];
} {
  const byTurn = new Map(history.corrections.map((c) => [key(c.session, c.turn), c]));
  const all = { repeats: 0, caught: 0 };
  const soft = { repeats: 0, caught: 0 };
  const earlier = new Set<LabelledCorrection>();
  for (const correction of history.corrections) {
    if (correction.repeats === null) continue;
    const first = byTurn.get(key(correction.repeats.session, correction.repeats.turn));
    if (first === undefined) continue;
    earlier.add(first);
    const tally = correction.why.startsWith('soft:') ? soft : all;
    tally.repeats++;
    if (caught(correction, first)) tally.caught++;
  }
  return { all, soft, earlier: [...earlier] };
}

/**
 * A memory that keeps every human message and, on every human turn, puts back the k earlier messages most
 * similar to it by TF-IDF cosine (each message an item).
 */
function keepEverything(history: LabelledHistory, k: number): ReplayCount & { k: number } {
  const messages = history.sessions.flatMap((session) =>
    session.turns
      .filter((turn) => turn.role === 'user')
      .map((turn) => ({ session: session.id, turn: turn.n, text: turn.text, terms: terms(turn.text) })),
  );
  const df = new Map<string, number>();
  for (const message of messages)
    for (const term of new Set(message.terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const vectors = messages.map((message) => tfidf(message.terms, df, messages.length));
  const shown: Shown[] = [];
  let items = 0;
  for (const [index, message] of messages.entries()) {
    const scored = messages
      .slice(0, index)
      .map((earlier, at) => ({ earlier, score: cosine(vectors[index]!, vectors[at]!) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
    items += scored.length;
    shown.push({
      session: message.session,
      turn: message.turn,
      text: scored.map((s) => s.earlier.text).join('\n'),
    });
  }
  const { all } = countRepeats(history, (correction, first) =>
    shown.some(
      (item) =>
        item.session === correction.session && item.turn < correction.turn && item.text.includes(first.said),
    ),
  );
  return { k, ...all, items, perHundred: perHundred(all.caught, items) };
}

function terms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
}

function tfidf(words: readonly string[], df: Map<string, number>, total: number): Map<string, number> {
  const vector = new Map<string, number>();
  for (const word of words) vector.set(word, (vector.get(word) ?? 0) + 1);
  let norm = 0;
  for (const [word, count] of vector) {
    const weight = count * Math.log((1 + total) / (1 + (df.get(word) ?? 0)));
    vector.set(word, weight);
    norm += weight * weight;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [word, weight] of vector) vector.set(word, weight / norm);
  return vector;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [word, weight] of small) sum += weight * (large.get(word) ?? 0);
  return sum;
}

/** Whether one of the episodes' heads (`headOf`) is that of `said`. */
function heldBy(heads: readonly string[], said: string): boolean {
  const head = headOf(said);
  return heads.some((one) => one !== '' && (one.startsWith(head) || head.startsWith(one)));
}

export interface ReplayReport {
  mode: string;
  histories: HistoryReplay[];
  total: HistoryReplay['remem'];
  baselines: (ReplayCount & { k: number })[];
  /** The history files, sessions and corrections that could not be replayed, each with why. */
  refused: { file: string; reason: string }[];
}

function sum<T extends ReplayCount>(rows: readonly T[]): ReplayCount {
  const repeats = rows.reduce((n, row) => n + row.repeats, 0);
  const caught = rows.reduce((n, row) => n + row.caught, 0);
  const items = rows.reduce((n, row) => n + row.items, 0);
  return { repeats, caught, items, perHundred: perHundred(caught, items) };
}

/** Every history of a folder replayed, one after another, with the totals. */
export async function replayAll(dir: string, options: ReplayOptions): Promise<ReplayReport> {
  const { readHistories } = await import('./histories.ts');
  const refused: { file: string; reason: string }[] = [];
  const all = readHistories(dir, (file, reason) => {
    refused.push({ file, reason });
    options.onProgress?.(`${file}: ${reason}`);
  });
  const histories: HistoryReplay[] = new Array(all.length);
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const at = next++;
      histories[at] = await replayHistory(all[at]!, options);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 1, all.length)) }, worker));
  const rows = histories.map((h) => h.remem);
  const ks = options.ks ?? [3, 20];
  return {
    mode: `${options.eachSession ? 'sleeping after every session' : 'as the product runs'}${
      options.perfectDetection ? ', every labelled correction detected' : ''
    }`,
    histories,
    total: {
      ...sum(rows),
      soft: sum(rows.map((row) => row.soft)),
      earlierBecameEpisodes: rows.reduce((n, row) => n + row.earlierBecameEpisodes, 0),
      earlierCorrections: rows.reduce((n, row) => n + row.earlierCorrections, 0),
      byMoment: Object.fromEntries(
        moments.map((moment) => [
          moment,
          {
            items: rows.reduce((n, row) => n + row.byMoment[moment].items, 0),
            caught: rows.reduce((n, row) => n + row.byMoment[moment].caught, 0),
          },
        ]),
      ) as ByMoment,
    },
    baselines: ks.map((k, i) => ({ k, ...sum(histories.map((h) => h.baselines[i]!)) })),
    refused,
  };
}

function cell(count: ReplayCount): string {
  return `${count.caught}/${count.repeats} | ${count.items} | ${count.perHundred ?? '—'}`;
}

/** The report as a table: per history and in total, Remem beside the keep-everything baselines. */
export function replayText(report: ReplayReport): string {
  const head = `| history | Remem caught/repeats | items | per 100 items | soft caught/repeats | earlier corrections that became episodes | ${report.baselines.map((b) => `top-${b.k} caught/repeats | items | per 100`).join(' | ')} | seconds |`;
  const rule = `|${head
    .split('|')
    .slice(1, -1)
    .map(() => '---')
    .join('|')}|`;
  const row = (name: string, remem: HistoryReplay['remem'], baselines: ReplayCount[], seconds: string) =>
    `| ${name} | ${cell(remem)} | ${remem.soft.caught}/${remem.soft.repeats} | ${remem.earlierBecameEpisodes}/${remem.earlierCorrections} | ${baselines.map(cell).join(' | ')} | ${seconds} |`;
  return [
    `Replayed ${report.mode} (holdout off; a repeat is caught when its earlier correction was shown in its session before it):`,
    '',
    head,
    rule,
    ...report.histories.map((h) => row(h.name, h.remem, h.baselines, String(h.seconds))),
    row(
      '**total**',
      report.total,
      report.baselines,
      String(Math.round(report.histories.reduce((n, h) => n + h.seconds, 0))),
    ),
    '',
    `By moment (items shown / repeats it was first to catch): ${moments
      .map((m) => `${m} ${report.total.byMoment[m].items} / ${report.total.byMoment[m].caught}`)
      .join(', ')}.`,
    ...(report.refused.length === 0
      ? []
      : ['', 'Left out:', ...report.refused.map(({ file, reason }) => `- ${file}: ${reason}`)]),
  ].join('\n');
}
