import { formatP, formatPercent, formatRate, type MeasureReport, renderTable } from '../measure/index.ts';
import { type Goal, type GoalTarget, goals, targetText } from './goals.ts';
import { type ExperimentName, readKept } from './kept.ts';
import { plans } from './plan.ts';
import { type ArmSummary, type ExperimentSummary, summarize } from './summary.ts';

export interface GoalResult {
  id: string;
  title: string;
  target: string;
  /** Met, not met, or null: not enough data to judge yet. */
  met: boolean | null;
  /** The figure the goal was judged on. */
  figure: string;
}

type Verdict = { met: boolean | null; figure: string };

function arms(summary: ExperimentSummary, arm: string): { mine?: ArmSummary; base?: ArmSummary } {
  const mine = summary.arms.find((row) => row.arm === arm && row.pooled.n > 0);
  const base = summary.arms.find((row) => row.arm === summary.baseline && row.pooled.n > 0);
  return { ...(mine ? { mine } : {}), ...(base ? { base } : {}) };
}

function judgeRuns(
  target: Extract<GoalTarget, { experiment: ExperimentName }>,
  summary: ExperimentSummary,
): Verdict {
  const { mine, base } = arms(summary, target.arm);
  if (!mine || !base || mine.pooled.n < target.minReplies || base.pooled.n < target.minReplies) {
    return { met: null, figure: `${mine?.pooled.n ?? 0} and ${base?.pooled.n ?? 0} replies so far` };
  }
  const rate = mine.pooled.rate ?? 0;
  const baseRate = base.pooled.rate ?? 0;
  const figure = `${target.arm} ${formatRate(mine.pooled.k, mine.pooled.n)}, none ${formatRate(base.pooled.k, base.pooled.n)}, p ${formatP(mine.p)}`;
  switch (target.kind) {
    case 'cuts':
      return { met: rate <= target.ratio * baseRate && (mine.p ?? 1) < target.alpha, figure };
    case 'no-rise':
      return { met: rate <= baseRate || (mine.p ?? 1) >= target.alpha, figure };
    case 'holds': {
      if (!target.everyModel) return { met: rate >= baseRate - target.points / 100, figure };
      const models = Object.keys(base.byModel);
      const perModel = models.map((model) => {
        const a = mine.byModel[model];
        const b = base.byModel[model]!;
        return { model, a, b };
      });
      if (perModel.some(({ a, b }) => !a || a.n < target.minReplies || b.n < target.minReplies)) {
        return { met: null, figure: 'some model has too few replies yet' };
      }
      const worst = perModel.map(({ model, a, b }) => ({
        model,
        drop: (b.rate ?? 0) - (a!.rate ?? 0),
        a: a!,
        b,
      }));
      const figures = worst.map(
        ({ model, a, b }) => `${model} ${formatPercent(b.rate)} → ${formatPercent(a.rate)}`,
      );
      return { met: worst.every(({ drop }) => drop <= target.points / 100), figure: figures.join('; ') };
    }
  }
}

function judgeStore(
  target: Exclude<GoalTarget, { experiment: ExperimentName }>,
  report: MeasureReport,
): Verdict {
  switch (target.kind) {
    case 'repeat-falls': {
      const { before, after } = report.repeatYourself;
      const figure = `before ${formatRate(before.repeated, before.atRisk)}, after ${formatRate(after.repeated, after.atRisk)}`;
      if (before.atRisk < target.minAtRisk || after.atRisk < target.minAtRisk) return { met: null, figure };
      return { met: (after.rate ?? 0) < (before.rate ?? 0), figure };
    }
    case 'holdout': {
      const { shown, heldOut, p } = report.holdout.primes;
      const figure = `shown ${formatRate(shown.k, shown.n)}, held out ${formatRate(heldOut.k, heldOut.n)}, p ${formatP(p) || '–'}`;
      if (shown.n < target.minPerArm || heldOut.n < target.minPerArm) return { met: null, figure };
      return { met: (shown.rate ?? 0) < (heldOut.rate ?? 0) && (p ?? 1) < target.alpha, figure };
    }
    case 'accuracy': {
      const { confirmed, failed, accuracy } = report.predictions;
      const figure = `${formatPercent(accuracy)} (${confirmed} confirmed, ${failed} failed)`;
      if (confirmed + failed < target.minResolved) return { met: null, figure };
      return { met: (accuracy ?? 0) >= target.atLeast, figure };
    }
    case 'errors-fall': {
      const weeks = report.repeatedErrors.byWeek;
      if (weeks.length < 2 * target.weeks)
        return { met: null, figure: `${weeks.length} weeks of history so far` };
      const rate = (rows: typeof weeks) => {
        const sessions = rows.reduce((sum, row) => sum + row.sessions, 0);
        return sessions === 0 ? 0 : rows.reduce((sum, row) => sum + row.repeats, 0) / sessions;
      };
      const first = rate(weeks.slice(0, target.weeks));
      const last = rate(weeks.slice(-target.weeks));
      return {
        met: last < first,
        figure: `${first.toFixed(2)} → ${last.toFixed(2)} repeated errors per session`,
      };
    }
  }
}

/** Each goal judged from the kept runs and the store's measurements. */
export function checkGoals(home: string, report: MeasureReport, list: readonly Goal[] = goals): GoalResult[] {
  const summaries = new Map<ExperimentName, ExperimentSummary>();
  const summaryOf = (experiment: ExperimentName) => {
    let summary = summaries.get(experiment);
    if (!summary) {
      summary = summarize(plans[experiment], readKept(home, experiment));
      summaries.set(experiment, summary);
    }
    return summary;
  };
  return list.map((goal) => {
    const { target } = goal;
    const verdict =
      'experiment' in target ? judgeRuns(target, summaryOf(target.experiment)) : judgeStore(target, report);
    return { id: goal.id, title: goal.title, target: targetText(target), ...verdict };
  });
}

export function goalsText(results: readonly GoalResult[]): string {
  const mark = (met: boolean | null) => (met === null ? 'not yet' : met ? 'met' : 'NOT MET');
  const met = results.filter((result) => result.met === true).length;
  const judged = results.filter((result) => result.met !== null).length;
  return [
    renderTable(
      ['goal', 'state', 'figure'],
      results.map((result) => [`${result.id} ${result.title}`, mark(result.met), result.figure]),
      { left: 3 },
    ),
    '',
    `${met} of ${judged} judged goals met; ${results.length - judged} wait for more data. Targets: docs/GOALS.md.`,
  ].join('\n');
}
