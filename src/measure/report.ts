import { formatP, formatPercent, formatRate, renderTable } from './format.ts';
import type { Comparison } from './holdout.ts';
import type { MeasureReport } from './measure.ts';
import type { RepeatFigures } from './rates.ts';

/** A table, or a line saying there is nothing to put in it yet. */
function weekly(header: readonly string[], rows: readonly (readonly string[])[], empty: string): string {
  return rows.length ? renderTable(header, rows) : empty;
}

function perSession(value: number | null): string {
  return value === null ? '–' : value.toFixed(2);
}

function repeatSection(title: string, figures: RepeatFigures, what: string): string[] {
  return [
    `${title}: ${figures.repeats} of ${figures.items} ${what} (${formatPercent(figures.share)})`,
    '',
    renderTable(
      ['later sessions', 'at risk', 'again', 'rate'],
      [
        [
          'before a lesson held it',
          String(figures.before.atRisk),
          String(figures.before.repeated),
          formatPercent(figures.before.rate),
        ],
        [
          'after',
          String(figures.after.atRisk),
          String(figures.after.repeated),
          formatPercent(figures.after.rate),
        ],
      ],
    ),
  ];
}

function comparisonRow(label: string, comparison: Comparison): string[] {
  return [
    label,
    formatRate(comparison.shown.k, comparison.shown.n),
    formatRate(comparison.heldOut.k, comparison.heldOut.n),
    formatP(comparison.p) || '–',
  ];
}

/** The report as a person reads it: one table per measure. */
export function measureReportText(report: MeasureReport): string {
  const { repeatYourself, repeatedErrors, predictions, surprises, holdout, replay } = report;
  const lines = [
    `Measured ${report.at} over ${report.sessions} sessions (hashed space: same surprise at ${report.cuts.sameSurprise}, priming at ${report.cuts.priming}).`,
    '',
    ...repeatSection('Repeat-yourself', repeatYourself, 'corrections said again what an earlier session had'),
    '',
    ...repeatSection('Repeated errors', repeatedErrors, 'errors met again a failure of an earlier session'),
    '',
    weekly(
      ['week', 'sessions', 'errors', 'met before', 'per session'],
      repeatedErrors.byWeek.map((week) => [
        week.week,
        String(week.sessions),
        String(week.items),
        String(week.repeats),
        perSession(week.perSession),
      ]),
      'No sessions yet.',
    ),
    '',
    `Prediction accuracy: ${formatPercent(predictions.accuracy)} (${predictions.confirmed} confirmed, ${predictions.failed} failed, ${predictions.open} open)`,
    '',
    weekly(
      ['week made', 'made', 'confirmed', 'failed', 'open', 'accuracy'],
      predictions.byWeek.map((week) => [
        week.week,
        String(week.made),
        String(week.confirmed),
        String(week.failed),
        String(week.open),
        formatPercent(week.accuracy),
      ]),
      'No predictions yet.',
    ),
    '',
    `Surprises: ${surprises.total} in ${surprises.sessions} sessions`,
    '',
    weekly(
      ['week', 'sessions', 'errors', 'corrections', 'surprises', 'per session'],
      surprises.byWeek.map((week) => [
        week.week,
        String(week.sessions),
        String(week.errors),
        String(week.corrections),
        String(week.surprises),
        perSession(week.perSession),
      ]),
      'No sessions yet.',
    ),
    '',
    'The holdout: what followed shown primes and reminders, against held-back ones (Fisher exact, two-sided)',
    '',
    renderTable(
      ['', 'shown', 'held out', 'p'],
      [
        comparisonRow('primed lesson met again', holdout.primes),
        comparisonRow('reminder: turn still handed back', holdout.stops.handedBack),
        comparisonRow('reminder: hand-back corrected', holdout.stops.corrected),
      ],
    ),
    ...(holdout.primes.unknownLessons
      ? ['', `${holdout.primes.unknownLessons} primed lessons are no longer in the store and were left out.`]
      : []),
    ...(holdout.stops.unmatched
      ? ['', `${holdout.stops.unmatched} reminders belong to turns not in the store yet and were left out.`]
      : []),
    '',
    `Against normal memory, replayed: ${replay.repeatedCorrections} repeated corrections over ${replay.turns} turns (${replay.messages} messages)`,
    '',
    renderTable(
      ['memory', 'had the earlier one in front', 'items', 'per 100 items'],
      [replay.remem, ...replay.baselines].map((arm) => [
        arm.name,
        `${arm.caught} of ${replay.repeatedCorrections}`,
        String(arm.items),
        arm.perHundred === null ? '–' : arm.perHundred.toFixed(2),
      ]),
    ),
  ];
  return lines.join('\n');
}
