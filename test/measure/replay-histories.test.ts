import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayAll, wasShown } from '../../src/measure/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();

describe('whether an earlier correction was shown', () => {
  it('finds its first 60 characters, or 80 % of its words, in one item, and nothing less', () => {
    const said = 'no, use pnpm not npm, this repo has a pnpm lockfile and npm breaks it';
    expect(wasShown(said, `The person said: "No,  use pnpm not npm, this repo has a pnpm lockfile…"`)).toBe(
      true,
    );
    expect(wasShown(said, 'pnpm lockfile repo breaks: use pnpm not npm, this has it')).toBe(true);
    expect(wasShown(said, 'the repo has a lockfile')).toBe(false);
    // An item is a line: the words of two lessons together do not show it.
    expect(wasShown(said, 'pnpm lockfile repo breaks\nuse pnpm not npm, this has it')).toBe(false);
    expect(
      wasShown(said, 'an unrelated lesson\npnpm lockfile repo breaks: use pnpm not npm, this has it'),
    ).toBe(true);
  });
});

describe('remem measure replay', () => {
  it('counts a repeat as caught when the first correction reached the next session before it', async () => {
    const dir = tempDir();
    const said = 'no, use pnpm not npm, this repo has a pnpm lockfile';
    const session = (id: string, started: string, last: string) => ({
      id,
      started,
      turns: [
        { role: 'user', text: 'add dayjs to the dependencies', n: 0 },
        { role: 'assistant', text: 'I ran npm install dayjs and it is added to package.json.', n: 1 },
        { role: 'user', text: last, n: 2 },
        { role: 'assistant', text: 'Done, dayjs is installed with pnpm.', n: 3 },
      ],
    });
    writeFileSync(
      join(dir, 'one.json'),
      JSON.stringify({
        source: 'o/one',
        agent: 'claude-code',
        sessions: [
          session('s01', '2026-03-02T09:00:00Z', said),
          session('s02', '2026-03-03T09:00:00Z', said),
        ],
        corrections: [
          { session: 's01', turn: 2, said, repeats: null, theme: 'pnpm', why: '' },
          { session: 's02', turn: 2, said, repeats: { session: 's01', turn: 0 + 2 }, theme: 'pnpm', why: '' },
        ],
      }),
    );
    const report = await replayAll(dir, { binary: join(repoRoot, 'bin', 'remem.js'), eachSession: false });
    expect(report.total.repeats).toBe(1);
    expect(report.total.earlierBecameEpisodes).toBe(1);
    expect(report.total.caught).toBe(1);
    expect(report.total.items).toBeGreaterThan(0);
    expect(report.baselines.map((b) => b.caught)).toEqual([1, 1]);

    const home = tempDir();
    const shownFile = join(tempDir(), 'shown.jsonl');
    const cli = remem(['measure', 'replay', '--histories', dir, '--json', '--shown', shownFile], {
      home,
      now: '2026-03-04T00:00:00Z',
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { total: { caught: number } }).total.caught).toBe(1);
    // What was shown, line by line, and each repeat with the moment that caught it.
    const records = readFileSync(shownFile, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            type: string;
            moment?: string;
            caughtBy?: string | null;
            first?: { episode: boolean };
          },
      );
    const repeats = records.filter((r) => r.type === 'repeat');
    expect(repeats.map((r) => r.caughtBy)).toEqual(['start']);
    // Whether the earlier correction became an episode: what a miss owes to detection.
    expect(repeats.map((r) => r.first?.episode)).toEqual([true]);
    expect(records.some((r) => r.type === 'shown' && r.moment === 'prompt')).toBe(true);
    expect(remem(['measure', 'replay'], { home, now: '2026-03-04T00:00:00Z' }).code).toBe(2);
  });
});
