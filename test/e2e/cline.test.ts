/**
 * The tasks of Cline, Roo Code and Kilo Code read where the extensions keep them, in the editor's user folder
 * (VS Code's with --vscode, Cursor's with --cursor, both without flags): the person's corrections and the model's
 * failed edits become episodes of the folder the task ran in; reads are incremental; a task whose messages cannot be
 * read is a warning and the others are read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { CLINE_MESSAGES, clineTask, ROO_MESSAGES } from '../stream/cline-tasks.ts';
import { agentsAndProjects, correctionsSaid, digest, episodesOf, ingest } from './readers.ts';

const tempDir = useTempDirs();

/** An editor's user folder as VS Code keeps one: `workspaceStorage/` beside `globalStorage/`. */
function userFolder(root: string, name: string): string {
  const dir = join(root, name, 'User');
  mkdirSync(join(dir, 'workspaceStorage'), { recursive: true });
  mkdirSync(join(dir, 'globalStorage'), { recursive: true });
  return dir;
}

describe('Cline, Roo Code and Kilo Code tasks', () => {
  it('give the corrections and the failed edits as episodes of the folder each task ran in', () => {
    const home = tempDir();
    const root = tempDir('remem-cline-');
    const vscode = userFolder(root, 'Code');
    const task = clineTask(vscode, 'saoudrizwan.claude-dev', '1761991200000', CLINE_MESSAGES, '/work/shop');
    clineTask(vscode, 'rooveterinaryinc.roo-cline', '01J0ROO', ROO_MESSAGES, '/work/site');
    const before = digest(task);
    const report = ingest(home, ['--vscode', vscode]);
    expect(report.warningCount).toBe(0);
    expect(report.filesRead).toBe(2);
    const episodes = episodesOf(home);
    // The answer to the model's question is an answer; what follows its claim of completion corrects it.
    expect(correctionsSaid(episodes)).toEqual([
      'please use pnpm, not npm — this repo has a pnpm lockfile',
      'the nav still scrolls away, you changed the wrong selector',
      'we never import all of lodash here, import the single functions',
    ]);
    const pnpm = episodes.find((episode) => episode.said?.startsWith('please use pnpm'));
    expect(pnpm?.agentBefore).toBe("I'll install it with npm.");
    expect(agentsAndProjects(episodes)).toEqual(new Set(['cline /work/shop', 'cline /work/site']));
    expect(
      episodes
        .filter((episode) => episode.kind === 'error')
        .map((episode) => episode.title)
        .sort(),
    ).toEqual([
      'replace_in_file: replace_in_file /work/site/src/header.css',
      'replace_in_file: replace_in_file src/util.ts',
    ]);
    expect(digest(task)).toBe(before);
  });

  it('are read in Cursor’s user folder too, again only when a task changed, and a task that cannot be read is a warning', () => {
    const home = tempDir();
    const root = tempDir('remem-cline-');
    const cursor = userFolder(root, 'Cursor');
    const task = clineTask(cursor, 'kilocode.kilo-code', '01J0KILO', ROO_MESSAGES, '/work/site');
    const broken = clineTask(
      cursor,
      'saoudrizwan.claude-dev',
      '1761991200001',
      '[{"ts": 1, "type"',
      '/work/shop',
    );
    const first = ingest(home, ['--cursor', cursor]);
    expect(first.filesRead).toBe(1);
    expect(first.warnings).toEqual([
      { file: broken, reason: 'not read: not a JSON array of panel messages' },
    ]);
    const again = ingest(home, ['--cursor', cursor]);
    expect([again.filesRead, again.warnings.length]).toEqual([0, 1]);
    writeFileSync(
      task,
      JSON.stringify([
        ...ROO_MESSAGES,
        {
          ts: Date.parse('2026-11-01T10:09:00.000Z'),
          type: 'say',
          say: 'user_feedback',
          text: 'you broke the footer again',
        },
      ]),
    );
    const grown = ingest(home, ['--cursor', cursor]);
    expect([grown.filesRead, grown.filesRestarted]).toEqual([1, 0]);
    expect(correctionsSaid(episodesOf(home))).toContain('you broke the footer again');
  });
});
