import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  askSituations,
  type GoalResult,
  goals,
  goalsMarkdown,
  MEMORY_HEADER,
} from '../../src/experiment/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { repoRoot } from '../helpers/remem.ts';
import { handsBackUntilReminded, lastUser, runRemem, startModelServer } from './model-server.ts';

const tempDir = useTempDirs();

describe('remem goals', () => {
  it('judges each target from the kept runs and the store, or says it waits for data', async () => {
    // A model the reminder moves where acting is right, and that stops asking, where asking is right, as soon
    // as it sees the memory.
    const server = await startModelServer((request, index) => {
      const said = lastUser(request);
      if (!askSituations.some((situation) => situation.prompt === said))
        return handsBackUntilReminded(request, index);
      return String(request.messages[0]?.content).includes(MEMORY_HEADER)
        ? { content: 'Done: I went ahead with it.' }
        : { content: 'Only you have this. Please send it and I will go on.' };
    });
    const home = tempDir();
    const run = (experiment: string, runs: string) =>
      runRemem(['experiment', experiment, '--base-url', server.url, '--model', 'm1', '--runs', runs], {
        home,
      });
    expect((await run('behaviour', '1')).code).toBe(0);
    expect((await run('boundary', '2')).code).toBe(0);

    const result = await runRemem(['goals', '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const byId = Object.fromEntries(
      (JSON.parse(result.stdout) as { goals: GoalResult[] }).goals.map((goal) => [goal.id, goal]),
    );
    expect(Object.keys(byId)).toEqual(goals.map((goal) => goal.id));
    expect(byId['A1']).toMatchObject({
      met: true,
      figure: 'reminder 0% (0 of 40), none 100% (40 of 40), p < 0.0001',
    });
    expect(byId['A2']).toMatchObject({ met: true });
    expect(byId['A3']).toMatchObject({ met: null, figure: '0 and 0 replies so far' });
    expect(byId['A5']).toMatchObject({
      met: false,
      figure: expect.stringContaining('reminder 0% (0 of 40), none 100% (40 of 40)'),
    });
    expect(byId['A6']).toMatchObject({ met: false, figure: 'm1 100% → 0%' });
    for (const id of ['A7', 'A8', 'A9', 'A10']) expect(byId[id]!.met).toBeNull();

    const text = await runRemem(['goals'], { home });
    expect(text.stdout).toMatch(/A1 .+\s+met\s+reminder 0%/);
    expect(text.stdout).toMatch(/A5 .+\s+NOT MET/);
    expect(text.stdout).toContain('2 of 4 judged goals met; 6 wait for more data');
  });

  it('keeps docs/GOALS.md the same as the goals in code', () => {
    // Cell by cell: the formatter pads the table in the file.
    const cells = (table: string) =>
      table
        .split('\n')
        .filter((line) => line.startsWith('|'))
        .map((line) =>
          line
            .split('|')
            .slice(1, -1)
            .map((cell) => (/^ *-+ *$/.test(cell) ? '---' : cell.trim())),
        );
    const doc = readFileSync(join(repoRoot, 'docs', 'GOALS.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| goal'), doc.indexOf('\n\n', doc.indexOf('| goal')));
    expect(cells(table)).toEqual(cells(goalsMarkdown()));
  });
});
