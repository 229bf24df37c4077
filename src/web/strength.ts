import type { Lesson, Params } from '../core/index.ts';
import { DAY_MS, decayed } from '../core/index.ts';
import type { AuditRow } from '../store/index.ts';
import type { Chart } from './series.ts';

/** A lesson's strength right after one decision in its audit log, or now. */
export interface StrengthPoint {
  at: string;
  /** The audit action, or `now` for the last point. */
  action: string;
  actor: string;
  reason: string;
  strength: number;
}

function decayedBy(strength: number, from: string, to: string, halfLifeDays: number): number {
  return decayed(strength, (Date.parse(to) - Date.parse(from)) / DAY_MS, halfLifeDays);
}

/** `+0.5` in a reason such as `confirmed by 0123…: +0.5`. */
function raisedBy(reason: string, fallback: number): number {
  const match = /\+(\d+(?:\.\d+)?)\s*$/.exec(reason);
  return match ? Number(match[1]) : fallback;
}

function sourcesOf(row: AuditRow): number {
  try {
    const related = JSON.parse(row.related) as unknown;
    return Array.isArray(related) ? Math.max(1, related.length) : 1;
  } catch {
    return 1;
  }
}

/**
 * Strength over time, replayed from the audit log with the rules that wrote it: a new lesson starts at 1 (+0.5
 * for each further source), a received one at the candidate strength; a join or a confirmation adds, a failure
 * takes away, an archive records the value it fell to, and between decisions strength halves every half-life
 * unless archived. Recall touches are not audited, so the last point is the stored strength as it stands now.
 */
export function strengthHistory(
  lesson: Lesson,
  audit: readonly AuditRow[],
  options: { now: string; params: Params },
): StrengthPoint[] {
  const { params } = options;
  const halfLife = params.decay.halfLifeDays;
  const points: StrengthPoint[] = [];
  let strength = 0;
  let archived = false;
  let last: string | null = null;
  for (const row of audit) {
    if (last !== null && !archived) strength = decayedBy(strength, last, row.at, halfLife);
    last = row.at;
    switch (row.action) {
      case 'add':
        strength = 1 + params.join.strength * (sourcesOf(row) - 1);
        archived = false;
        break;
      case 'receive':
        strength = params.sharing.candidateStrength;
        break;
      case 'join':
        strength += params.join.strength;
        archived = false;
        break;
      case 'confirm':
        strength +=
          row.actor === 'sleep'
            ? params.prediction.confirmed
            : raisedBy(row.reason, params.sharing.corroboration);
        archived = false;
        break;
      case 'corroborate':
        strength += raisedBy(row.reason, params.sharing.corroboration);
        archived = false;
        break;
      case 'fail':
        strength = Math.max(0, strength + params.prediction.failed);
        break;
      case 'archive': {
        const match = /strength (\d+(?:\.\d+)?)/.exec(row.reason);
        if (match) strength = Number(match[1]);
        archived = true;
        break;
      }
      default:
        break;
    }
    points.push({ at: row.at, action: row.action, actor: row.actor, reason: row.reason, strength });
  }
  const now = lesson.archived
    ? lesson.strength
    : decayedBy(lesson.strength, lesson.decayedAt, options.now, halfLife);
  points.push({
    at: options.now,
    action: 'now',
    actor: '',
    reason: 'as stored, decayed to now',
    strength: now,
  });
  return points.map((point) => ({ ...point, strength: Math.round(point.strength * 1000) / 1000 }));
}

/** The history as a chart: one point per decision, and now. */
export function strengthChart(lessonId: number, history: readonly StrengthPoint[]): Chart {
  return {
    id: `strength-${lessonId}`,
    title: 'Strength over time',
    description:
      'Replayed from the audit log: learned, joined, confirmed, failed, archived, and the decay in between; the last point is now.',
    type: 'line',
    x: { kind: 'time', label: 'When', values: history.map((point) => point.at) },
    y: { label: 'Strength', percent: false },
    plotted: [{ label: 'Strength', values: history.map((point) => point.strength) }],
    counts: [],
    notes: {
      label: 'What happened',
      values: history.map((point) => (point.action === 'now' ? 'now' : `${point.action}: ${point.reason}`)),
    },
  };
}
