/**
 * `remem ingest --import FILE`: a person's written rules become their notes for the project the file sits in,
 * stored once however often the file is read, and rebuilt by `--from-raw`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const NOW = '2026-11-01T23:00:00.000Z';

const RULES = `# Project rules

- Use pnpm, never npm.
- Run the tests with
  \`pnpm test\` before each commit.

\`\`\`sh
npm install
\`\`\`

Dates are stored in UTC.
`;

function notes(home: string): string[] {
  const listed = remem(['episodes', '--json'], { home, now: NOW });
  expect(listed.code, listed.stderr).toBe(0);
  return listed
    .json<{ episodes: { kind: string; text?: string; project?: string }[] }>()
    .episodes.map((episode) => `${episode.kind}: ${JSON.stringify(episode)}`);
}

describe('remem ingest --import', () => {
  it("reads a rules file as the person's notes for its project, once, and rebuilds them from raw/", () => {
    const home = tempDir();
    const project = tempDir('remem-rules-');
    mkdirSync(project, { recursive: true });
    const file = join(project, 'CLAUDE.md');
    writeFileSync(file, RULES);
    const first = remem(['ingest', '--json', '--import', file], { home, now: NOW });
    expect(first.code, first.stderr).toBe(0);
    expect(first.json<{ eventsStored: number; warningCount: number }>()).toMatchObject({
      eventsStored: 3,
      warningCount: 0,
    });
    const listed = notes(home);
    expect(listed).toHaveLength(3);
    for (const rule of [
      'Use pnpm, never npm.',
      'Run the tests with `pnpm test` before each commit.',
      'Dates are stored in UTC.',
    ]) {
      expect(
        listed.some((line) => line.startsWith('note: ') && line.includes(JSON.stringify(rule).slice(1, -1))),
      ).toBe(true);
    }
    expect(listed.some((line) => line.includes('npm install'))).toBe(false);
    expect(listed.every((line) => line.includes(`"project":${JSON.stringify(project)}`))).toBe(true);
    const again = remem(['ingest', '--json', '--import', file], { home, now: NOW });
    expect(again.json<{ eventsStored: number }>().eventsStored).toBe(0);
    expect(notes(home)).toHaveLength(3);
    const rebuilt = remem(['ingest', '--from-raw', '--json'], { home, now: NOW });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(notes(home)).toEqual(listed);
  });

  it('says which file is missing and reads nothing', () => {
    const home = tempDir();
    const result = remem(['ingest', '--import', join(tempDir(), 'AGENTS.md')], { home, now: NOW });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/no such rules file/);
  });
});
