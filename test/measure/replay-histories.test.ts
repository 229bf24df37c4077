import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHistories, replayAll, wasShown } from '../../src/measure/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();

/** A session of a history whose turns alternate, the person first. */
function sessionOf(id: string, started: string, texts: readonly string[]) {
  return {
    id,
    started,
    turns: texts.map((text, n) => ({ role: n % 2 === 0 ? 'user' : 'assistant', text, n })),
  };
}

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
    const session = (id: string, started: string, last: string) =>
      sessionOf(id, started, [
        'add dayjs to the dependencies',
        'I ran npm install dayjs and it is added to package.json.',
        last,
        'Done, dayjs is installed with pnpm.',
      ]);
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

  it('with every labelled correction detected, hands over only what the detectors missed, each once', async () => {
    const dir = tempDir();
    const detected = 'no, use pnpm not npm, this repo has a pnpm lockfile';
    const missed = 'spec files are named after what they describe, like library_spec.py';
    const session = (id: string, started: string) =>
      sessionOf(id, started, [
        'add dayjs to the dependencies',
        'I ran npm install dayjs and it is added to package.json.',
        detected,
        'Done, dayjs is installed with pnpm. I also added test_library.py.',
        missed,
        'Renamed it to library_spec.py.',
      ]);
    const labelled = (said: string, turn: number) => [
      { session: 's01', turn, said, repeats: null, theme: said, why: '' },
      { session: 's02', turn, said, repeats: { session: 's01', turn }, theme: said, why: '' },
    ];
    writeFileSync(
      join(dir, 'one.json'),
      JSON.stringify({
        source: 'o/one',
        agent: 'claude-code',
        sessions: [session('s01', '2026-03-02T09:00:00Z'), session('s02', '2026-03-03T09:00:00Z')],
        corrections: [...labelled(detected, 2), ...labelled(missed, 4)],
      }),
    );
    const binary = join(repoRoot, 'bin', 'remem.js');
    const shownFile = join(tempDir(), 'shown.jsonl');
    const asRun = await replayAll(dir, { binary, eachSession: false });
    // The detector finds the first and not the second: without help, one of the two became an episode.
    expect(asRun.total.earlierBecameEpisodes).toBe(1);
    const report = await replayAll(dir, { binary, eachSession: false, perfectDetection: true, shownFile });
    expect(report.total.earlierBecameEpisodes).toBe(2);
    const shown = readFileSync(shownFile, 'utf8')
      .trim()
      .split('\n')
      .flatMap((line) => {
        const record = JSON.parse(line) as { type: string; text?: string; items?: { text: string }[] };
        return [record.text ?? '', ...(record.items ?? []).map((item) => item.text)];
      });
    // The correction the detector found is not handed over again: it would be counted as said twice.
    expect(shown.some((text) => text.includes(detected))).toBe(true);
    expect(shown.filter((text) => /corrected the agent \d+ times/.test(text))).toEqual([]);
  });
});

describe('reading a folder of histories', () => {
  it('leaves out what it cannot replay, says why, and reads the rest', () => {
    const dir = tempDir();
    const said = 'no, use pnpm not npm';
    writeFileSync(join(dir, 'a.json'), 'not json');
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ sessions: [] }));
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({
        sessions: [
          sessionOf('s01', '2026-03-02T09:00:00Z', [said]),
          { id: 's02', turns: [] },
          { id: 's03', started: '2026-03-04T09:00:00Z', turns: [{ role: 'user', n: 0 }] },
        ],
        corrections: [
          { session: 's01', turn: 0, said, repeats: null, theme: 'pnpm', why: '' },
          { session: 's02', turn: 0, said, repeats: { session: 's01', turn: 0 }, theme: 'pnpm', why: '' },
          { session: 's01', turn: 0, said, repeats: 's01' },
        ],
      }),
    );
    const refused: string[] = [];
    const histories = readHistories(dir, (file, reason) =>
      refused.push(`${file.slice(dir.length + 1)}: ${reason}`),
    );
    expect(histories.map((h) => [h.name, h.sessions.length, h.corrections.length])).toEqual([['c', 1, 1]]);
    expect(refused).toEqual([
      expect.stringMatching(/^a\.json: not readable JSON/),
      'b.json: no sessions or corrections',
      'c.json: session s02 has no start time; left out',
      'c.json: session s03: turn 0 has no role, text or number; left out',
      'c.json: correction 1 names no session of the history; left out',
      'c.json: correction 2: "repeats" is neither null nor a session and turn; left out',
    ]);
    writeFileSync(join(dir, 'c.json'), '[]');
    expect(() => readHistories(dir)).toThrow(/no history could be replayed/);
  });
});
