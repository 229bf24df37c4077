import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { day } from '../truth/fixtures.ts';
import { seenByEveryPath } from './agent-paths.ts';

const tempDir = useTempDirs();
const project = '/tmp/remem-must-not-a';
const said = 'no, the capybara service listens on port 7070';

function correction(home: string, n: number, session: string): void {
  const file = join(home, `events-${n}.jsonl`);
  writeFileSync(
    file,
    `${JSON.stringify({ agent: 'claude-code', cwd: project, kind: 'correction', said, agent_did: 'I will use port 80.', session, at: day(n) })}\n`,
  );
  const ingest = remem(['ingest', '--events', file], { home, now: day(n, 23) });
  expect(ingest.code, ingest.stderr).toBe(0);
  const slept = remem(['sleep'], { home, now: day(n + 1, 4) });
  expect(slept.code, slept.stderr).toBe(0);
}

describe('MUST NOT: a vetoed lesson is written again', () => {
  it('the same correction after a veto is refused; nothing of it reaches an agent', async () => {
    const home = tempDir();
    correction(home, 0, 's1');
    const before = remem(['lessons', '--json'], { home, now: day(1, 5) }).json<{
      lessons: { id: number; hash: string }[];
    }>();
    expect(before.lessons).toHaveLength(1);
    const vetoed = remem(['forget', String(before.lessons[0]!.id)], { home, now: day(1, 6) });
    expect(vetoed.code, vetoed.stderr).toBe(0);
    correction(home, 3, 's2');
    correction(home, 6, 's3');
    const after = remem(['lessons', '--all', '--json'], { home, now: day(7, 5) }).json<{
      lessons: { hash: string; state: string }[];
    }>();
    expect(
      after.lessons.map((lesson) => lesson.state),
      'MUST NOT write a vetoed lesson again: it stays one vetoed row',
    ).toEqual(['vetoed']);
    for (const { path, seen } of await seenByEveryPath({ home, project, query: said, now: day(7, 6) })) {
      expect(
        seen.map((item) => item.text).join('\n'),
        `MUST NOT show a vetoed lesson via ${path}`,
      ).not.toContain('capybara');
    }
  });
});
