import type { Params } from '../core/index.ts';
import { type Arm, type MeasureReport, measure } from '../measure/index.ts';
import type { Store } from '../store/index.ts';

/** One column of numbers over the chart's x values; null where there is nothing to say. */
export interface Column {
  label: string;
  values: (number | null)[];
}

/**
 * A chart as the page draws it and as its table reads to a screen reader: the plotted columns, and the counts
 * behind them that only the table shows.
 */
export interface Chart {
  id: string;
  title: string;
  description: string;
  type: 'line' | 'bars';
  /** Weeks (their Monday, YYYY-MM-DD), times (ISO 8601) or named categories. */
  x: { kind: 'week' | 'time' | 'category'; label: string; values: string[] };
  y: { label: string; percent: boolean };
  plotted: Column[];
  counts: Column[];
  /** Words for each x value, shown in the table (what happened then). */
  notes?: { label: string; values: string[] };
}

/** A share with its 95% Wilson score interval (good for small counts, never outside 0–1). */
export interface Proportion {
  k: number;
  n: number;
  rate: number | null;
  low: number | null;
  high: number | null;
}

export function wilson(k: number, n: number, z = 1.96): Proportion {
  if (n === 0) return { k, n, rate: null, low: null, high: null };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { k, n, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface MemorySeries {
  at: string;
  charts: Chart[];
  /** The holdout's comparison: what followed primes shown against primes held out. */
  primes: { shown: Proportion; heldOut: Proportion; p: number | null; unknownLessons: number };
  totals: {
    sessions: number;
    surprises: number;
    predictions: { made: number; confirmed: number; failed: number; open: number; accuracy: number | null };
  };
}

const percent = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);
const rounded = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);

function proportion(arm: Arm): Proportion {
  return wilson(arm.k, arm.n);
}

/** The memory's measures (`remem measure`) as the page's charts. */
export function chartsOf(report: MeasureReport): MemorySeries {
  const predictions = report.predictions.byWeek;
  const surprises = report.surprises.byWeek;
  const weeks = [
    ...new Set([...report.repeatYourself.byWeek, ...report.repeatedErrors.byWeek].map((row) => row.week)),
  ].sort();
  const repeatOf = (rows: MeasureReport['repeatYourself']['byWeek'], field: 'perSession' | 'repeats') =>
    weeks.map((week) => {
      const row = rows.find((candidate) => candidate.week === week);
      return row ? rounded(row[field]) : null;
    });
  const shown = proportion(report.holdout.primes.shown);
  const heldOut = proportion(report.holdout.primes.heldOut);
  // No bars until a prime was logged on either side.
  const arms = <T>(a: T, b: T): T[] => (shown.n + heldOut.n === 0 ? [] : [a, b]);
  const charts: Chart[] = [
    {
      id: 'prediction-accuracy',
      title: 'Prediction accuracy by week',
      description:
        'Of the predictions made that week and resolved since, the share confirmed inside their window.',
      type: 'line',
      x: { kind: 'week', label: 'Week made', values: predictions.map((row) => row.week) },
      y: { label: 'Confirmed (%)', percent: true },
      plotted: [{ label: 'Accuracy', values: predictions.map((row) => percent(row.accuracy)) }],
      counts: [
        { label: 'Made', values: predictions.map((row) => row.made) },
        { label: 'Confirmed', values: predictions.map((row) => row.confirmed) },
        { label: 'Failed', values: predictions.map((row) => row.failed) },
        { label: 'Open', values: predictions.map((row) => row.open) },
      ],
    },
    {
      id: 'surprises-per-session',
      title: 'Surprises per session by week',
      description:
        'Errors, corrections and stated surprises per session, by the week each session began. It should fall as the memory fills.',
      type: 'line',
      x: { kind: 'week', label: 'Week', values: surprises.map((row) => row.week) },
      y: { label: 'Per session', percent: false },
      plotted: [{ label: 'Surprises per session', values: surprises.map((row) => rounded(row.perSession)) }],
      counts: [
        { label: 'Sessions', values: surprises.map((row) => row.sessions) },
        { label: 'Errors', values: surprises.map((row) => row.errors) },
        { label: 'Corrections', values: surprises.map((row) => row.corrections) },
        { label: 'Stated surprises', values: surprises.map((row) => row.surprises) },
      ],
    },
    {
      id: 'repeats',
      title: 'Repeat-yourself and repeated-error rates by week',
      description:
        'Per session: corrections the person had already given in an earlier session, and failures the agent had already met.',
      type: 'line',
      x: { kind: 'week', label: 'Week', values: weeks },
      y: { label: 'Per session', percent: false },
      plotted: [
        { label: 'Repeat-yourself', values: repeatOf(report.repeatYourself.byWeek, 'perSession') },
        { label: 'Repeated errors', values: repeatOf(report.repeatedErrors.byWeek, 'perSession') },
      ],
      counts: [
        { label: 'Corrections said again', values: repeatOf(report.repeatYourself.byWeek, 'repeats') },
        { label: 'Errors met again', values: repeatOf(report.repeatedErrors.byWeek, 'repeats') },
      ],
    },
    {
      id: 'primes',
      title: 'Primes shown against held out, and what followed',
      description:
        'Each lesson primed in a session, once: shown to the agent, or worked out and held back. Followed: the same correction or error came anyway, later in that session.',
      type: 'bars',
      x: { kind: 'category', label: 'Group', values: arms('Shown', 'Held out') },
      y: { label: 'Primes', percent: false },
      plotted: [
        { label: 'Primes', values: arms(shown.n, heldOut.n) },
        { label: 'Followed by the same surprise', values: arms(shown.k, heldOut.k) },
      ],
      counts: [
        { label: 'Followed (%)', values: arms(percent(shown.rate), percent(heldOut.rate)) },
        { label: '95% interval, low (%)', values: arms(percent(shown.low), percent(heldOut.low)) },
        { label: '95% interval, high (%)', values: arms(percent(shown.high), percent(heldOut.high)) },
      ],
    },
  ];
  return {
    at: report.at,
    charts,
    primes: {
      shown,
      heldOut,
      p: report.holdout.primes.p,
      unknownLessons: report.holdout.primes.unknownLessons,
    },
    totals: {
      sessions: report.sessions,
      surprises: report.surprises.total,
      predictions: {
        made: report.predictions.made,
        confirmed: report.predictions.confirmed,
        failed: report.predictions.failed,
        open: report.predictions.open,
        accuracy: report.predictions.accuracy,
      },
    },
  };
}

/** Load → measure → charts. Reads only: a person looking changes nothing. */
export function memorySeries(store: Store, options: { params: Params; now: string }): MemorySeries {
  return chartsOf(measure(store, options));
}
