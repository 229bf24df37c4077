import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/index.ts';
import { loadHistory } from '../../src/measure/history.ts';
import { replayedInjections } from '../../src/measure/replay.ts';
import { readSessionLog } from '../../src/prime/index.ts';
import { openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import {
  day,
  ingestTranscripts,
  lessonHashes,
  measured,
  primeRow,
  project,
  sleepAfter,
  writeTranscript,
} from './history.ts';

const tempDir = useTempDirs();

/**
 * Two days of Claude Code sessions. t1: the agent offers instead of committing and the person says "you do it,
 * don't ask me" (night 0 learns it, after a hand-back). t2: the agent offers again and the person says it again.
 * t3: the agent offers, the end-of-turn reminder fires, and it publishes.
 */
function firstTwoSessions(
  home: string,
  claude: string,
  t1Closing = 'I added the flag to the cart test script and tested it. Want me to commit it?',
  t2Answer = 'you do it, dont ask me',
): void {
  writeTranscript(claude, 't1', [
    { at: day(0, 10), role: 'user', text: 'Add a dry-run flag to the cart test script.' },
    { at: day(0, 10, 1), role: 'assistant', text: t1Closing },
    { at: day(0, 10, 2), role: 'user', text: "you do it, don't ask me" },
    { at: day(0, 10, 3), role: 'assistant', text: 'Committed the cart test fix as a1b2c3d.' },
  ]);
  ingestTranscripts(home, claude, day(0, 23));
  sleepAfter(home, 0);
  writeTranscript(claude, 't2', [
    { at: day(1, 10), role: 'user', text: 'The cart test fails since yesterday.' },
    {
      at: day(1, 10, 1),
      role: 'assistant',
      text: 'Fixed removeItem; the cart test passes now. Should I push the fix?',
    },
    { at: day(1, 10, 2), role: 'user', text: t2Answer },
    { at: day(1, 10, 3), role: 'assistant', text: 'Pushed.' },
  ]);
  ingestTranscripts(home, claude, day(1, 23));
  sleepAfter(home, 1);
}

/**
 * A prompt asked in `session` at `at` (its transcript already ingested): the lessons the replay would prime, and
 * the lessons the built prompt hook shows, each as hash lists, with the correction lesson's hash.
 */
function replayedAndHooked(home: string, session: string, at: string, prompt: string) {
  const store = openStore(home);
  const history = loadHistory(store.db, home, resolveConfig({ HOME: home, REMEM_HOME: home }).params);
  const replayed = replayedInjections(history).filter((put) => put.session === session && !put.stop);
  store.close();
  const hooked = remem(['prime'], {
    home,
    now: at,
    input: JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: session,
      transcript_path: '/dev/null',
      cwd: project,
      prompt,
    }),
    env: { REMEM_HOLDOUT: '0' },
  });
  expect(hooked.code, hooked.stderr).toBe(0);
  return {
    replayed,
    hooked: readSessionLog(home, session).map((row) => row.lessonHashes),
    correction: lessonHashes(home).find((lesson) => lesson.kind === 'correction')!.hash,
  };
}

describe('remem measure on kept transcripts: the reminder holdout and normal memory replayed', () => {
  it('replays the hooks’ rules when nothing was logged, then reads the logged reminders', () => {
    const home = tempDir();
    const claude = join(tempDir(), 'claude');
    firstTwoSessions(home, claude);

    // Nothing logged: the rules replayed. The reminder fires on t2's offer (the lesson exists and its one
    // source followed a hand-back); the prime meets "you do it, dont ask me" itself, too late to count.
    const replayed = measured(home, day(2, 5)).replay;
    expect(replayed.turns).toBe(4);
    expect(replayed.messages).toBe(8);
    expect(replayed.repeatedCorrections).toBe(1);
    expect(replayed.remem).toMatchObject({
      source: 'replayed',
      caught: 1,
      items: 2,
      primes: 1,
      reminders: 1,
      perHundred: 50,
    });
    // Every message, k back a turn: 0 + 2 + 3 + 3 items (k = 3); 0 + 2 + 4 + 6 (k = 20). Before t2's
    // correction, its one earlier turn ("The cart test fails…") resembles the three messages about the cart
    // test more than the correction, so only k = 20 brings the correction back.
    expect(replayed.baselines).toEqual([
      { name: 'every message, 3 back a turn', k: 3, caught: 0, items: 8, perHundred: 0 },
      { name: 'every message, 20 back a turn', k: 20, caught: 1, items: 12, perHundred: (1 / 12) * 100 },
    ]);

    writeTranscript(claude, 't3', [
      { at: day(1, 16), role: 'user', text: 'Bump the version to 2.1.0.' },
      {
        at: day(1, 16, 1),
        role: 'assistant',
        text: 'Bumped the version in package.json. Want me to publish it?',
      },
      {
        at: day(1, 16, 1, 30),
        role: 'user',
        text: 'Stop hook feedback:\nYour reply ends by handing the next step back.',
      },
      { at: day(1, 16, 2), role: 'assistant', text: 'Published 2.1.0 to npm.' },
      { at: day(1, 16, 3), role: 'user', text: 'thanks, looks good' },
    ]);
    ingestTranscripts(home, claude, day(2, 23));
    const lesson = lessonHashes(home).find((l) => l.kind === 'correction')!.hash;
    primeRow(home, { at: day(1, 10, 1, 5), session: 't2', moment: 'stop', heldOut: true, hashes: [lesson] });
    primeRow(home, { at: day(1, 16, 1, 5), session: 't3', moment: 'stop', heldOut: false, hashes: [lesson] });

    const report = measured(home, day(3, 5));
    // Held back in t2: the turn ended on the offer and the person corrected it. Shown in t3: the turn went on
    // and ended "Published 2.1.0 to npm.".
    expect(report.holdout.stops).toEqual({
      handedBack: { shown: { n: 1, k: 0, rate: 0 }, heldOut: { n: 1, k: 1, rate: 1 }, p: 1 },
      corrected: { shown: { n: 1, k: 0, rate: 0 }, heldOut: { n: 1, k: 1, rate: 1 }, p: 1 },
      unmatched: 0,
    });
    // Logged: two reminders, one of them before t2's repeated correction.
    expect(report.replay.turns).toBe(6);
    expect(report.replay.remem).toMatchObject({
      source: 'logged',
      caught: 1,
      items: 2,
      primes: 0,
      reminders: 2,
      perHundred: 50,
    });
    expect(report.replay.baselines.map((arm) => arm.items)).toEqual([8 + 3 + 3, 12 + 8 + 11]);
  });

  it('replays no reminder for a lesson whose sources followed a question, not an offer, as the Stop hook does', () => {
    const home = tempDir();
    const claude = join(tempDir(), 'claude');
    // t1's correction answers a question; t2 ends on an offer the person accepts.
    firstTwoSessions(
      home,
      claude,
      'I can add it as --dry-run or as an environment variable. Which would you prefer?',
      'Yes, thanks.',
    );
    expect(lessonHashes(home).some((lesson) => lesson.kind === 'correction')).toBe(true);
    // The lesson's one source followed a question: it says nothing of offers, and t2's offer gets no reminder.
    expect(measured(home, day(2, 5)).replay.remem).toMatchObject({ source: 'replayed', reminders: 0 });
  });

  it('replays a prompt with the prompt hook’s own choice: the lessons the hook shows', () => {
    const home = tempDir();
    const claude = join(tempDir(), 'claude');
    firstTwoSessions(home, claude);
    const prompt = "Bump the version. You do it, don't ask me.";
    writeTranscript(claude, 't3', [
      { at: day(2, 10), role: 'user', text: prompt },
      { at: day(2, 10, 1), role: 'assistant', text: 'Bumped and pushed.' },
    ]);
    ingestTranscripts(home, claude, day(2, 11));
    const { replayed, hooked, correction } = replayedAndHooked(home, 't3', day(2, 10), prompt);
    expect(hooked).toEqual([[correction]]);
    expect(replayed).toEqual([{ session: 't3', at: day(2, 10), stop: false, lessonHashes: [correction] }]);
  });

  it('replays a prompt met by what it is about, not its words, as the hook does', () => {
    const home = tempDir();
    const claude = join(tempDir(), 'claude');
    writeTranscript(claude, 't1', [
      { at: day(0, 10), role: 'user', text: 'Add zod for the form validation.' },
      { at: day(0, 10, 1), role: 'assistant', text: 'I ran npm install zod and added the schema.' },
      { at: day(0, 10, 2), role: 'user', text: 'no, use pnpm not npm, this repo has a pnpm lockfile' },
      { at: day(0, 10, 3), role: 'assistant', text: 'Reinstalled zod with pnpm.' },
    ]);
    ingestTranscripts(home, claude, day(0, 23));
    sleepAfter(home, 0);
    const prompt = 'add dayjs to the dependencies';
    writeTranscript(claude, 't2', [
      { at: day(1, 10), role: 'user', text: prompt },
      { at: day(1, 10, 1), role: 'assistant', text: 'Added.' },
    ]);
    ingestTranscripts(home, claude, day(1, 11));
    const { replayed, hooked, correction } = replayedAndHooked(home, 't2', day(1, 10), prompt);
    expect(hooked).toEqual([[correction]]);
    expect(replayed).toEqual([{ session: 't2', at: day(1, 10), stop: false, lessonHashes: [correction] }]);
  });
});
