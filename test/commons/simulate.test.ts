import { describe, expect, it } from 'vitest';
import { renderSimulation, simulateGossip } from '../../src/transport/index.ts';

describe('simulateGossip', () => {
  it('spreads a lesson, its confirmations and its revocation to every memory within log2(N) + 3 rounds', () => {
    const row = simulateGossip({ agents: 500, fanout: 3, seed: 7 });
    for (const rounds of [row.rounds.lesson, row.rounds.common, row.rounds.revoked]) {
      expect(rounds).not.toBeNull();
      expect(rounds!).toBeLessThanOrEqual(row.bound);
    }
    expect(row.signatures).toBe(5);
    expect(row.verified).toBe(5);
    expect(row.cached).toBeGreaterThan(500);
    expect(renderSimulation([row])).toMatch(/500\s+3\s+\d+\s+\d+\s+\d+\s+12\.0/);
  });

  it('is repeatable from its seed', () => {
    const a = simulateGossip({ agents: 200, fanout: 2, seed: 3 });
    const b = simulateGossip({ agents: 200, fanout: 2, seed: 3 });
    expect(a.rounds).toEqual(b.rounds);
    expect(a.transfers).toBe(b.transfers);
  });
});
