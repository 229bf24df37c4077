import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drainPrimeLogs } from '../../src/prime/index.ts';
import { openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { day, event, ingestEvents, lessonHashes, measured, primeRow, sleepAfter } from './history.ts';

const tempDir = useTempDirs();

const uv = (session: string, at: string) =>
  event({
    kind: 'correction',
    said: 'no, this project uses uv, not pip',
    agent_did: "I'll install the dependency with pip install requests.",
    session,
    at,
  });
const lint = (session: string, at: string) =>
  event({
    kind: 'error',
    title: 'Bash: npm run lint',
    happened: 'npm ERR! Missing script: "lint"',
    session,
    at,
  });

/**
 * Six sessions over three days, then a night 18 days on:
 * - s1 (day 0) says "uv, not pip"; s2 (day 0) says it again, before any night, and meets the lint error;
 * - night 0 learns the uv lesson; s3 (day 1) says it a third time and meets the lint error again;
 *   s4 (day 1) gives a new correction;
 * - night 1 learns the lint error (it repeated) and the new correction; s5 (day 2) holds only a note;
 *   s6 (day 2) meets the lint error a third time.
 */
function replayHistory(home: string): { uv: string; lint: string } {
  // The arithmetic of the report, not the window: a prediction fails on its days alone, with no sessions after it.
  writeFileSync(join(home, 'config.json'), JSON.stringify({ params: { prediction: { windowSessions: 0 } } }));
  ingestEvents(home, 0, [uv('s1', day(0, 10)), uv('s2', day(0, 14)), lint('s2', day(0, 14, 5))]);
  sleepAfter(home, 0);
  ingestEvents(home, 1, [
    uv('s3', day(1, 10)),
    lint('s3', day(1, 10, 5)),
    event({
      kind: 'correction',
      said: 'stop asking me and run the release yourself',
      agent_did: 'Shall I cut the release?',
      session: 's4',
      at: day(1, 15),
    }),
  ]);
  sleepAfter(home, 1);
  ingestEvents(home, 2, [
    event({ kind: 'note', text: 'looked at the dashboard together', session: 's5', at: day(2, 10) }),
    lint('s6', day(2, 11)),
  ]);
  sleepAfter(home, 2);
  sleepAfter(home, 20);
  const lessons = lessonHashes(home);
  const find = (kind: string, word: string) =>
    lessons.find((l) => l.kind === kind && l.text.includes(word))!.hash;
  return { uv: find('correction', 'uv'), lint: find('error', 'lint') };
}

describe('remem measure, over a history replayed through REMEM_NOW', () => {
  it('reports each figure as counted by hand', () => {
    const home = tempDir();
    const hashes = replayHistory(home);
    // The holdout: s3 and s6 were shown their primes, s4 and s5 held them back.
    primeRow(home, {
      at: day(1, 9, 59),
      session: 's3',
      moment: 'prompt',
      heldOut: false,
      hashes: [hashes.uv],
    });
    primeRow(home, {
      at: day(1, 14, 59),
      session: 's4',
      moment: 'prompt',
      heldOut: true,
      hashes: [hashes.uv],
    });
    primeRow(home, {
      at: day(2, 9, 59),
      session: 's5',
      moment: 'tool',
      heldOut: true,
      hashes: [hashes.lint],
    });
    primeRow(home, {
      at: day(2, 10, 59),
      session: 's6',
      moment: 'tool',
      heldOut: false,
      hashes: [hashes.lint],
    });
    // A lesson the store no longer has, and a session's second prime of the same lesson: neither counts.
    primeRow(home, {
      at: day(2, 10),
      session: 's5',
      moment: 'prompt',
      heldOut: true,
      hashes: ['f'.repeat(32)],
    });
    primeRow(home, {
      at: day(1, 9, 59, 30),
      session: 's3',
      moment: 'prompt',
      heldOut: false,
      hashes: [hashes.uv],
    });

    const report = measured(home, day(21, 5));
    expect(report.sessions).toBe(6);

    // Corrections: the uv one three times (s1, s2, s3), a new one once (s4); two said again what an earlier
    // session had. The uv meaning was at risk in s2 before its lesson (night 0) and said again there; after it,
    // in s3–s6, said again once (s3); the new one was at risk in s5 and s6, after its lesson: 1 of 6.
    expect(report.repeatYourself).toMatchObject({
      items: 4,
      repeats: 2,
      before: { atRisk: 1, repeated: 1, rate: 1 },
      after: { atRisk: 6, repeated: 1 },
    });
    expect(report.repeatYourself.after.rate).toBeCloseTo(1 / 6, 10);

    // The lint error in s2, s3 and s6; its lesson came on night 1 (it had to repeat). Before it: s3 (met
    // again) and s4; after: s5 and s6 (met again).
    expect(report.repeatedErrors).toMatchObject({
      items: 3,
      repeats: 2,
      before: { atRisk: 2, repeated: 1, rate: 0.5 },
      after: { atRisk: 2, repeated: 1, rate: 0.5 },
    });
    expect(report.repeatedErrors.byWeek).toEqual([
      { week: '2026-10-26', sessions: 2, items: 1, repeats: 0, perSession: 0 },
      { week: '2026-11-02', sessions: 4, items: 2, repeats: 2, perSession: 0.5 },
    ]);

    expect(report.surprises.byWeek).toEqual([
      { week: '2026-10-26', sessions: 2, errors: 1, corrections: 2, surprises: 0, perSession: 1.5 },
      { week: '2026-11-02', sessions: 4, errors: 2, corrections: 2, surprises: 0, perSession: 1 },
    ]);

    // Night 0 predicts the uv lesson (made Mon 2 Nov); night 1 confirms it (s3) and predicts all three;
    // night 2 confirms the lint one (s6) and predicts it again; 18 days on, the three still open failed, and none
    // predicts again: nothing met them since.
    expect(report.predictions.byWeek).toEqual([
      { week: '2026-11-02', made: 5, confirmed: 2, failed: 3, open: 0, accuracy: 0.4 },
    ]);
    expect(report.predictions.accuracy).toBeCloseTo(0.4, 10);

    // Shown: s3 said uv again after its prime, s6 met lint again after its; held out: neither s4 nor s5 did.
    expect(report.holdout.primes).toMatchObject({
      shown: { n: 2, k: 2, rate: 1 },
      heldOut: { n: 2, k: 0, rate: 0 },
      unknownLessons: 1,
    });
    expect(report.holdout.primes.p).toBeCloseTo(1 / 3, 10);

    // Moving the hooks' logs into the store changes nothing.
    const store = openStore(home);
    try {
      expect(drainPrimeLogs(store).injections).toBe(6);
    } finally {
      store.close();
    }
    const after = measured(home, day(21, 5));
    expect(after.holdout).toEqual(report.holdout);
    expect(after.replay).toEqual(report.replay);
  });

  it('prints tables a person can read', () => {
    const home = tempDir();
    replayHistory(home);
    const result = remem(['measure'], { home, now: day(21, 5) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Repeat-yourself: 2 of 4 corrections');
    expect(result.stdout).toMatch(/before a lesson held it\s+1\s+1\s+100%/);
    expect(result.stdout).toMatch(/2026-11-02\s+5\s+2\s+3\s+0\s+40%/);
    expect(result.stdout).toContain('every message, 20 back a turn');
  });

  it('answers on an empty store', () => {
    const home = tempDir();
    const report = measured(home, day(0));
    expect(report.sessions).toBe(0);
    expect(report.holdout.primes.p).toBeNull();
    expect(report.replay.remem.perHundred).toBeNull();
  });
});
