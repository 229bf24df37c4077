import { describe, expect, it } from 'vitest';
import { defaultParams, type Params } from '../../src/core/index.ts';
import type { AuditRow } from '../../src/store/index.ts';
import { strengthHistory, wilson } from '../../src/web/index.ts';
import { lesson } from '../truth/fixtures.ts';

const params = structuredClone(defaultParams) as unknown as Params;

function row(id: number, at: string, action: AuditRow['action'], extra: Partial<AuditRow> = {}): AuditRow {
  return {
    id,
    at,
    actor: 'sleep',
    action,
    rules: 'test',
    lesson_id: 1,
    hash: null,
    reason: '',
    related: '[]',
    refers_to: null,
    ...extra,
  };
}

describe('wilson', () => {
  it('gives the 95% score interval, inside 0–1 even at the edges', () => {
    expect(wilson(0, 0)).toEqual({ k: 0, n: 0, rate: null, low: null, high: null });
    const none = wilson(0, 2);
    expect(none.rate).toBe(0);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(1.96 ** 2 / (2 + 1.96 ** 2), 6);
    const half = wilson(1, 2);
    expect(half.low).toBeCloseTo(0.0945, 4);
    expect(half.high).toBeCloseTo(0.9055, 4);
    const all = wilson(20, 20);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(0.8389, 4);
  });
});

describe('strengthHistory', () => {
  it('replays the rules that wrote the audit: sources, joins, confirmations from here and elsewhere, decay', () => {
    const start = '2026-03-01T04:00:00.000Z';
    const history = strengthHistory(
      { ...lesson({ strength: 2.2, at: '2026-03-20T04:00:00.000Z' }), decayedAt: '2026-03-20T04:00:00.000Z' },
      [
        row(1, start, 'add', { related: '[4, 9]' }),
        row(2, start, 'join'),
        row(3, '2026-03-01T04:00:00.000Z', 'relate'),
        row(4, '2026-03-01T04:00:00.000Z', 'confirm', {
          actor: 'receive',
          reason: 'confirmed by 0123456789abcdef: +0.5',
        }),
        row(5, '2026-04-15T04:00:00.000Z', 'fail'),
      ],
      { now: '2026-04-15T04:00:00.000Z', params },
    );
    expect(history.map((point) => point.action)).toEqual(['add', 'join', 'relate', 'confirm', 'fail', 'now']);
    expect(history.map((point) => point.strength).slice(0, 4)).toEqual([1.5, 2, 2, 2.5]);
    // 45 days: one half-life, then the failure.
    expect(history[4]!.strength).toBeCloseTo(2.5 / 2 - 0.5, 3);
    // Now is the stored strength, decayed since it was last decayed (26 days).
    expect(history[5]!.strength).toBeCloseTo(2.2 * 0.5 ** (26 / 45), 3);
  });

  it('holds an archived lesson where it fell, and a join brings it back to decaying', () => {
    const history = strengthHistory(
      { ...lesson({ strength: 0.62 }), decayedAt: '2026-06-01T04:00:00.000Z' },
      [
        row(1, '2026-01-01T04:00:00.000Z', 'add'),
        row(2, '2026-04-01T04:00:00.000Z', 'archive', { reason: 'strength 0.120 fell below 0.15' }),
        row(3, '2026-06-01T04:00:00.000Z', 'join'),
      ],
      { now: '2026-06-01T04:00:00.000Z', params },
    );
    expect(history.map((point) => point.strength)).toEqual([1, 0.12, 0.62, 0.62]);
  });
});
