import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seeded } from '../../bench/_generate.ts';
import { writeCorpus } from './corpus.ts';
import { type CrashTrial, crashCommands, crashTrial, prepareCrash, spreadDelays } from './crash.ts';

/** About 2 MB for ingest and sleep; a little less for the whole nightly job, which is rerun after every kill. */
const sizes = {
  ingest: { files: 10, events: 700 },
  sleep: { files: 10, events: 700 },
  run: { files: 6, events: 500 },
};

describe('a command killed with SIGKILL at a random point', () => {
  it.concurrent.each(crashCommands)(
    'remem %s: the store stays whole, keeps what it had committed, and a rerun reaches the uninterrupted state',
    async (command) => {
      // Its own folder: the three commands run at once.
      const root = mkdtempSync(join(tmpdir(), `remem-crash-${command}-`));
      const trials: CrashTrial[] = [];
      let ms = 0;
      try {
        const corpus = writeCorpus(join(root, 'corpus'), sizes[command]);
        const setup = await prepareCrash(command, corpus, root);
        ms = setup.ms;
        for (const [n, delay] of spreadDelays(setup.ms, 10, seeded(command.length)).entries()) {
          trials.push(await crashTrial(setup, delay, join(root, `trial-${n}`)));
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
      // A kill that comes after the command finished injects nothing; most land while it runs.
      expect(trials.filter((trial) => trial.killed).length).toBeGreaterThanOrEqual(5);
      for (const trial of trials) {
        const at = `killed after ${trial.delayMs} ms of ${Math.round(ms)}`;
        expect(trial.integrity, at).toBe('ok');
        expect(trial.lost, at).toEqual([]);
        expect(trial.rerunFailure, at).toBeNull();
        expect(trial.difference, at).toBeNull();
      }
    },
    240_000,
  );
});
