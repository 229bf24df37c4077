import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DelegationTally, delegationTally, type Store } from '../store/index.ts';
import type { LessonLine, SleepReport } from './report.ts';

/** Writes a file whole or not at all. */
export function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

function bullet(line: LessonLine, extra = ''): string {
  return `- #${line.id} [${line.kind}] ${line.text} (strength ${line.strength.toFixed(2)}, seen ${line.seen}${extra})`;
}

function section(title: string, lines: string[]): string[] {
  return lines.length ? [`## ${title} (${lines.length})`, '', ...lines, ''] : [];
}

/** The delegation tally in words: for the owner only, never shown to an agent. */
export function formatTally(tally: readonly DelegationTally[]): string[] {
  if (tally.length === 0) return ['No reply handed the decision back yet.'];
  const byKind = new Map<string, DelegationTally[]>();
  for (const row of tally) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row]);
  const lines: string[] = [];
  for (const [kind, rows] of byKind) {
    const total = rows.reduce((sum, row) => sum + row.count, 0);
    const answers = rows.map((row) => `${row.answer} ${row.count}`).join(', ');
    lines.push(`- ${kind}: ${total} (${answers})`);
  }
  return lines;
}

function wordingLines(report: SleepReport): string[] {
  const note = report.wording;
  if (note === null || (note.asked === 0 && note.fallback === null)) return [];
  const lines = ['', `${note.model} worded ${note.reworded} of ${note.asked} new lessons.`];
  if (note.fallback) lines.push('', `Note: ${note.fallback}.`);
  return lines;
}

function judgeLines(report: SleepReport): string[] {
  const note = report.judge;
  // A report stored before the judge came has no note.
  if (!note || (note.asked === 0 && note.waiting === 0)) return [];
  const lines = [
    '',
    `${note.model} judged ${note.asked} message${note.asked === 1 ? '' : 's'} scored just under the correction threshold: ${note.confirmed} confirmed, ${note.declined} not${note.unclear ? `, ${note.unclear} unclear` : ''}; ${note.waiting} still wait${note.waiting === 1 ? 's' : ''}.`,
  ];
  if (note.failure) lines.push('', `Note: ${note.failure}.`);
  return lines;
}

export function morningReportText(report: SleepReport, tally: readonly DelegationTally[]): string {
  const confirmedIds = new Set(report.confirmed.map((line) => line.id));
  const strengthenedBy = new Map(report.strengthened.map((line) => [line.id, line.by]));
  const lines = [
    `# Morning report, ${report.at.slice(0, 10)}`,
    '',
    `Slept at ${report.at} in the ${report.space} space; ${report.embedded} items embedded.`,
    ...(report.fallback ? ['', `Note: ${report.fallback}.`] : []),
    ...wordingLines(report),
    ...judgeLines(report),
    ...(report.holdout
      ? [
          '',
          report.holdout.share === 0
            ? 'Holdout: off; every session gets the lessons that apply.'
            : `Holdout: ${Math.round(report.holdout.share * 100)}% of sessions get no lessons, at random, to tell whether they help; so far ${report.holdout.held} sessions held out, ${report.holdout.shown} shown (remem doctor compares them; REMEM_HOLDOUT sets the share).`,
        ]
      : []),
    '',
    ...section(
      'Learned',
      report.learned.map((line) => bullet(line)),
    ),
    ...section(
      'Strengthened',
      // A lesson whose prediction came true tonight is listed once, under Confirmed, with what joined it.
      report.strengthened
        .filter((line) => !confirmedIds.has(line.id))
        .map((line) => bullet(line, `, +${line.by} surprise${line.by === 1 ? '' : 's'}`)),
    ),
    ...section(
      'Merged into themes',
      report.merged.map((merge) =>
        bullet(merge.into, `, took in ${merge.from.map((id) => `#${id}`).join(', ')}`),
      ),
    ),
    ...section(
      'Said otherwise: lessons of one subject that disagree',
      report.related.map((relation) =>
        relation.kind === 'supersedes'
          ? `- lesson #${relation.from} supersedes lesson #${relation.to}: the person said otherwise later`
          : `- lesson #${relation.from} refutes lesson #${relation.to}: agents are asked, not told, until one is settled`,
      ),
    ),
    ...section(
      'Confirmed: a prediction came true',
      report.confirmed.map((line) => {
        const by = strengthenedBy.get(line.id);
        return bullet(line, by ? `, +${by} surprise${by === 1 ? '' : 's'}` : '');
      }),
    ),
    ...section(
      'Failed: a prediction did not come true in its window',
      report.failed.map((line) => bullet(line)),
    ),
    ...section(
      'Corroborated: another memory learned the same',
      report.corroborated.map((line) => bullet(line, `, by ${line.by}`)),
    ),
    ...section(
      'Archived: faded below the floor',
      report.archived.map((line) => bullet(line)),
    ),
    ...section(
      'Refused',
      report.refused.map((item) => `- ${item.text} (${item.reason})`),
    ),
    ...section(
      'Problems',
      report.problems.map((problem) => `- ${problem}`),
    ),
  ];
  if (
    report.learned.length +
      report.strengthened.length +
      report.merged.length +
      report.related.length +
      report.confirmed.length +
      report.failed.length +
      report.corroborated.length +
      report.archived.length ===
    0
  ) {
    lines.push('Nothing changed tonight.', '');
  }
  lines.push(
    `Predictions made: ${report.predicted}. Episodes archived: ${report.episodesArchived}${
      report.episodesArchivedAfterDays === undefined
        ? ''
        : ` (untouched for about ${report.episodesArchivedAfterDays} days: kept in the store, no longer learned from)`
    }.`,
    '',
    '## How replies handed the decision back (for you; never shown to an agent)',
    '',
    ...formatTally(tally),
    '',
  );
  return lines.join('\n');
}

export function writeMorningReport(store: Store, report: SleepReport): void {
  writeAtomically(join(store.home, 'morning.md'), morningReportText(report, delegationTally(store.db)));
}
