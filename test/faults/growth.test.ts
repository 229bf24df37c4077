import { describe, expect, it } from 'vitest';
import { replayGrowth } from '../../bench/growth.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

// The year is replayed by `npm run soak`; here, two nights of the same heavy user.
describe('growth over replayed nights', () => {
  it('keeps every event, and primes a session with a bounded number of tokens', async () => {
    const result = await replayGrowth(
      { days: 2, sessionsPerDay: 50, primedSessions: 5 },
      tempDir('remem-growth-'),
    );
    expect(result.failures).toEqual([]);
    expect(result.eventsStored).toBe(result.eventsWritten);
    const [month] = result.months;
    expect(month?.shown).toBeGreaterThan(0);
    expect(month?.primeTokens).toBeGreaterThan(0);
    // Wired as a person wires it, the agent's memory folder is written.
    expect(month?.folderKB).toBeGreaterThan(0);
    expect(month?.indexTokens).toBeGreaterThan(0);
    // At most two lessons a prompt, each once a session.
    expect(month?.primeTokensMax).toBeLessThan(4000);
  }, 120_000);
});
