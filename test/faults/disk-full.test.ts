import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCorpus } from './corpus.ts';
import { chooseDiskWay, type DiskFullSetup, diskFullTrial, prepareDiskFull } from './disk-full.ts';

let root = '';
let setup: DiskFullSetup;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'remem-disk-'));
  const corpus = writeCorpus(join(root, 'corpus'), { files: 12, events: 800 });
  setup = await prepareDiskFull(corpus, root, chooseDiskWay(join(root, 'probe')));
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Bytes left on the disk when the command starts: none, and enough for part of the work. For ingest, also room for
 * the store's writes but not for every archive member (written on a worker thread): still a failure, not warnings.
 */
const cases = [
  ['ingest', [0, 1024 * 1024, 1_900_000, 2_500_000]],
  ['sleep', [0, 256 * 1024]],
] as const;

describe('a full disk', () => {
  it.each(cases)(
    'under remem %s: one line naming the problem, exit 1, and the store as it was',
    async (command, slacks) => {
      let failed = 0;
      for (const slack of slacks) {
        const trial = await diskFullTrial(setup, command, slack, join(root, `${command}-${slack}`));
        const at = `${trial.way}, ${slack} bytes left: ${trial.said}`;
        if (trial.failed) failed++;
        if (trial.failed) expect(trial.clear, at).toBe(true);
        expect(trial.quiet, at).toBe(false);
        expect(trial.integrity, at).toBe('ok');
        expect(trial.lost, at).toEqual([]);
        expect(trial.partial, at).toBeNull();
        expect(trial.difference, at).toBeNull();
      }
      expect(failed, 'the disk ran out under the command at least once').toBeGreaterThan(0);
    },
    120_000,
  );
});
