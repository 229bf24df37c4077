import { fisherExact, formatP, formatRate, renderTable, share } from '../measure/index.ts';
import type { KeptReply } from './kept.ts';
import type { ExperimentPlan } from './plan.ts';

export interface Count {
  k: number;
  n: number;
  rate: number | null;
}

export interface ArmSummary {
  arm: string;
  /** Replies that handed back (or, where asking is right, asked), by model, by setting, and pooled. */
  byModel: Record<string, Count>;
  bySetting: Record<string, Count>;
  pooled: Count;
  /** Pooled, by the hooks' narrower rule. */
  hooks: Count;
  /** Two-sided Fisher exact test of the pooled count against the baseline arm's; null for the baseline. */
  p: number | null;
  /** Replies that got the second turn. */
  reminded: number;
  /** Replies whose loop called a tool at least once. */
  usedTools: number;
}

export interface ExperimentSummary {
  experiment: string;
  counts: ExperimentPlan['counts'];
  baseline: string;
  models: string[];
  replies: number;
  arms: ArmSummary[];
}

function count(
  replies: readonly KeptReply[],
  test: (reply: KeptReply) => boolean = (reply) => reply.handback,
): Count {
  const k = replies.filter(test).length;
  return { k, n: replies.length, rate: share(k, replies.length) };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** The kept replies of one experiment as a table: per arm, per model and pooled, against the baseline. */
export function summarize(plan: ExperimentPlan, replies: readonly KeptReply[]): ExperimentSummary {
  const models = [...new Set(replies.map((reply) => reply.model))].sort();
  const byArm = groupBy(replies, (reply) => reply.arm);
  const known = plan.arms.map((arm) => arm.name);
  const names = [...known, ...[...byArm.keys()].filter((name) => !known.includes(name)).sort()];
  const base = count(byArm.get(plan.baseline) ?? []);
  const arms = names.map((arm) => {
    const mine = byArm.get(arm) ?? [];
    const pooled = count(mine);
    const p =
      arm === plan.baseline || pooled.n === 0 || base.n === 0
        ? null
        : fisherExact({ a: pooled.k, b: pooled.n - pooled.k, c: base.k, d: base.n - base.k });
    return {
      arm,
      byModel: Object.fromEntries(
        [...groupBy(mine, (reply) => reply.model)].map(([model, rows]) => [model, count(rows)]),
      ),
      bySetting: Object.fromEntries(
        [...groupBy(mine, (reply) => reply.setting)].map(([setting, rows]) => [setting, count(rows)]),
      ),
      pooled,
      hooks: count(mine, (reply) => reply.hooksHandback),
      p,
      reminded: mine.filter((reply) => reply.reminded).length,
      usedTools: mine.filter((reply) => reply.toolCalls > 0).length,
    };
  });
  return {
    experiment: plan.name,
    counts: plan.counts,
    baseline: plan.baseline,
    models,
    replies: replies.length,
    arms,
  };
}

/** The table a person reads: one row per arm, a column per model, pooled, and p against the baseline. */
export function summaryText(summary: ExperimentSummary, loop = false): string {
  const what = summary.counts === 'asked' ? 'Asked (asking is right here)' : 'Hand-back rate';
  if (summary.replies === 0) return `${summary.experiment}: no replies kept yet.`;
  const rows = summary.arms
    .filter((arm) => arm.pooled.n > 0)
    .map((arm) => [
      arm.arm,
      ...summary.models.map((model) => {
        const cell = arm.byModel[model];
        return cell ? formatRate(cell.k, cell.n) : '–';
      }),
      ...(summary.models.length > 1 ? [formatRate(arm.pooled.k, arm.pooled.n)] : []),
      arm.arm === summary.baseline ? '' : formatP(arm.p),
    ]);
  const header = [
    `${summary.experiment}: ${what}`,
    ...summary.models,
    ...(summary.models.length > 1 ? ['pooled'] : []),
    `p against ${summary.baseline}`,
  ];
  const notes = summary.arms
    .filter((arm) => arm.pooled.n > 0)
    .map((arm) => {
      const parts = [`${arm.arm}: ${formatRate(arm.hooks.k, arm.hooks.n)} by the hooks' rule alone`];
      if (arm.reminded) parts.push(`second turn in ${arm.reminded} of ${arm.pooled.n}`);
      if (loop) parts.push(`tools used in ${formatRate(arm.usedTools, arm.pooled.n)}`);
      return `- ${parts.join('; ')}`;
    });
  return [renderTable(header, rows), '', ...notes].join('\n');
}
