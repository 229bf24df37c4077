import type { NightResult } from '../night/index.ts';
import type { NightlyPull } from '../transport/index.ts';
import type { Context } from './command.ts';
import { formatIngestReport, runIngest } from './ingest-run.ts';
import { collectStatus, formatStatus, type Status } from './status-run.ts';

/** What `remem run` prints: the night, and the state of the memory after it. */
export type NightlyResult = NightResult & { status: Status };

/** The nightly job as the command line runs it: its ingest shows progress, and the status follows. */
export async function runNightly(context: Context, options: { orExamples: boolean }): Promise<NightlyResult> {
  const { runNight } = await import('../night/index.ts');
  const result = await runNight({
    config: context.config,
    clock: context.clock,
    orExamples: options.orExamples,
    ingest: (folders, home) =>
      runIngest(
        context,
        {
          claude: folders?.claude ?? [],
          codex: folders?.codex ?? [],
          gemini: [],
          opencode: [],
          cursor: [],
          vscode: [],
          continue: [],
          aider: [],
          specstory: [],
          transcript: [],
          events: [],
          import: [],
          fromRaw: false,
        },
        home,
      ),
  });
  return { ...result, status: collectStatus(result.home) };
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
