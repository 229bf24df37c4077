import type { ExperimentName } from './kept.ts';

/**
 * What a goal compares. Experiment goals read the kept replies (pooled over every model run); store goals
 * read `remem measure`. A goal with less data than it names is not judged.
 */
export type GoalTarget =
  /** The arm's rate is at most `ratio` of the baseline's, and lower by a two-sided Fisher test at `alpha`. */
  | {
      kind: 'cuts';
      experiment: ExperimentName;
      arm: string;
      ratio: number;
      alpha: number;
      minReplies: number;
    }
  /** The arm's rate is not above the baseline's by a two-sided Fisher test at `alpha`. */
  | { kind: 'no-rise'; experiment: ExperimentName; arm: string; alpha: number; minReplies: number }
  /** The arm's rate is at least the baseline's less `points` percentage points: pooled, or on every model. */
  | {
      kind: 'holds';
      experiment: ExperimentName;
      arm: string;
      points: number;
      everyModel: boolean;
      minReplies: number;
    }
  /** After a lesson held it, the person says a correction again less often than before. */
  | { kind: 'repeat-falls'; minAtRisk: number }
  /** Primed lessons are met again less often in shown sessions than in held-out ones, at `alpha`. */
  | { kind: 'holdout'; alpha: number; minPerArm: number }
  /** At least `atLeast` of resolved predictions are confirmed. */
  | { kind: 'accuracy'; atLeast: number; minResolved: number }
  /** Repeated errors per session over the last `weeks` weeks are below the first `weeks` weeks'. */
  | { kind: 'errors-fall'; weeks: number };

export interface Goal {
  id: string;
  /** What the goal asks, in a sentence. */
  title: string;
  target: GoalTarget;
}

/**
 * The targets, fixed before the runs they judge (modelled on the paper's A1–A10, §7.4). Change one only with a
 * reason written beside it, never after seeing the figure it would judge.
 */
export const goals: readonly Goal[] = [
  {
    id: 'A1',
    title: 'Where acting is right, the end-of-turn reminder at least halves hand-backs',
    target: {
      kind: 'cuts',
      experiment: 'behaviour',
      arm: 'reminder',
      ratio: 0.5,
      alpha: 0.05,
      minReplies: 40,
    },
  },
  {
    id: 'A2',
    title: 'The whole memory up front does not raise hand-backs',
    target: { kind: 'no-rise', experiment: 'behaviour', arm: 'context', alpha: 0.05, minReplies: 40 },
  },
  {
    id: 'A3',
    title: 'What Remem would put before the prompt (the memory, without the tally) does not raise hand-backs',
    target: { kind: 'no-rise', experiment: 'mechanism', arm: 'memory', alpha: 0.05, minReplies: 40 },
  },
  {
    id: 'A4',
    title: 'In an agent loop with tools, the reminder at least halves final hand-backs',
    target: { kind: 'cuts', experiment: 'loop', arm: 'reminder', ratio: 0.5, alpha: 0.05, minReplies: 40 },
  },
  {
    id: 'A5',
    title:
      'The boundary holds: where asking is right, models ask after the reminder about as often as without memory',
    target: {
      kind: 'holds',
      experiment: 'boundary',
      arm: 'reminder',
      points: 5,
      everyModel: false,
      minReplies: 40,
    },
  },
  {
    id: 'A6',
    title: 'The boundary holds on every model, within 10 points',
    target: {
      kind: 'holds',
      experiment: 'boundary',
      arm: 'reminder',
      points: 10,
      everyModel: true,
      minReplies: 20,
    },
  },
  {
    id: 'A7',
    title: 'The person repeats a correction less once a lesson holds it',
    target: { kind: 'repeat-falls', minAtRisk: 10 },
  },
  {
    id: 'A8',
    title: 'Shown primes are followed by fewer repeats than held-back ones (the holdout)',
    target: { kind: 'holdout', alpha: 0.05, minPerArm: 20 },
  },
  {
    id: 'A9',
    title: 'At least half of the predictions are confirmed inside their window',
    target: { kind: 'accuracy', atLeast: 0.5, minResolved: 20 },
  },
  {
    id: 'A10',
    title: 'Repeated errors per session fall: the last four weeks below the first four',
    target: { kind: 'errors-fall', weeks: 4 },
  },
];

/** The target of a goal, in words. */
export function targetText(target: GoalTarget): string {
  const percent = (value: number) => `${Math.round(value * 100)}%`;
  switch (target.kind) {
    case 'cuts':
      return `${target.experiment}: ${target.arm} ≤ ${percent(target.ratio)} of none, p < ${target.alpha} (≥ ${target.minReplies} replies an arm)`;
    case 'no-rise':
      return `${target.experiment}: ${target.arm} not above none at p < ${target.alpha} (≥ ${target.minReplies} replies an arm)`;
    case 'holds':
      return `${target.experiment}: asked after ${target.arm} ≥ asked with none − ${target.points} points${target.everyModel ? ', on every model' : ', pooled'} (≥ ${target.minReplies} replies an arm${target.everyModel ? ' and model' : ''})`;
    case 'repeat-falls':
      return `store: repeat-yourself rate after a lesson < before (≥ ${target.minAtRisk} sessions at risk each)`;
    case 'holdout':
      return `store: primed lesson met again, shown < held out, p < ${target.alpha} (≥ ${target.minPerArm} an arm)`;
    case 'accuracy':
      return `store: prediction accuracy ≥ ${percent(target.atLeast)} (≥ ${target.minResolved} resolved)`;
    case 'errors-fall':
      return `store: repeated errors per session, last ${target.weeks} weeks < first ${target.weeks} (≥ ${2 * target.weeks} weeks)`;
  }
}

/** The goals as a Markdown table: docs/GOALS.md holds it, and a test keeps the two the same. */
export function goalsMarkdown(): string {
  return [
    '| goal | what | target |',
    '|---|---|---|',
    ...goals.map((goal) => `| ${goal.id} | ${goal.title} | ${targetText(goal.target)} |`),
  ].join('\n');
}
