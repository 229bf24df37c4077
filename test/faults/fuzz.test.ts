import { describe, expect, it } from 'vitest';
import { fuzzHttp } from './fuzz-http.ts';
import { fuzzIngest } from './fuzz-ingest.ts';
import type { FuzzOutcome } from './fuzz-kit.ts';
import { fuzzUnits } from './fuzz-units.ts';

function expectClean(outcomes: readonly FuzzOutcome[]): void {
  for (const outcome of outcomes) {
    expect(outcome.failures, outcome.name).toEqual([]);
    expect(outcome.lost, outcome.name).toBe(0);
    expect(outcome.runs, outcome.name).toBeGreaterThan(0);
  }
}

describe('bad input, fuzzed', () => {
  it('the readers of transcripts, events, hook payloads and records never throw, and name every refusal', async () => {
    expectClean(await fuzzUnits({ numRuns: 300 }));
  });

  it('the commons and the proxy never fail inside on a bad request, and name every refusal', async () => {
    expectClean(await fuzzHttp({ numRuns: 60 }));
  }, 60_000);

  it('garbage lines beside valid ones lose no episode, and the hook process takes any stdin', async () => {
    expectClean(await fuzzIngest({ numRuns: 8, primeRuns: 4 }));
  }, 120_000);
});
