/**
 * SpecStory's exports read where SpecStory keeps them, in each project's `.specstory/history/`: the person's
 * corrections and the agent's failed calls become episodes of that project, in every version of the format; reads
 * are incremental and archived; the exports are found from a project, a folder of projects, the history folder, one
 * file or REMEM_SPECSTORY; a path that is not an export is refused with the reason.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { CLI, CURSOR, OLDER, PRINTED_FAILURE } from '../stream/specstory-exports.ts';
import { agentsAndProjects, correctionsSaid, digest, episodesOf, ingest, READ_NOW } from './readers.ts';
import { claudeSession, STEPS } from './sessions.ts';

const tempDir = useTempDirs();

function project(root: string, name: string, exports: { name: string; text: string }[]): string {
  const folder = join(root, name);
  const history = join(folder, '.specstory', 'history');
  mkdirSync(history, { recursive: true });
  for (const file of exports) writeFileSync(join(history, file.name), file.text);
  return folder;
}

describe('SpecStory exports', () => {
  it('give the corrections and the failed calls of every version as episodes of the project', () => {
    const home = tempDir();
    const shop = project(tempDir('remem-specstory-'), 'shop', [OLDER, CURSOR, CLI]);
    const file = join(shop, '.specstory', 'history', CLI.name);
    const before = digest(file);
    const report = ingest(home, ['--specstory', shop]);
    expect(report.warningCount).toBe(0);
    expect(report.filesRead).toBe(3);
    const episodes = episodesOf(home);
    expect(correctionsSaid(episodes)).toEqual([
      "it still fails on CI, you didn't run it with the CI seed",
      'now the logo and tagline stay too and get in the way; only the nav should stay',
      'please use pnpm, not npm — this repo has a pnpm lockfile',
    ]);
    const correction = episodes.find((episode) => episode.said?.startsWith('please use pnpm'));
    expect(correction?.agentBefore).toMatch(/Let me know if you want me to use it anywhere/);
    expect(episodes.find((episode) => episode.kind === 'error')?.title).toBe(
      'Bash: pytest tests/ -q --grep flaky',
    );
    expect(agentsAndProjects(episodes)).toEqual(new Set([`specstory ${shop}`]));
    expect(digest(file)).toBe(before);
  });

  it('give a failed call of an export that shows only what the command printed', () => {
    const home = tempDir();
    expect(PRINTED_FAILURE.text).not.toBe(OLDER.text);
    const shop = project(tempDir('remem-specstory-'), 'shop', [PRINTED_FAILURE]);
    expect(ingest(home, ['--specstory', shop]).warningCount).toBe(0);
    // A missing program is the machine's, not the agent's mistake.
    const failure = episodesOf(home).find((episode) => episode.kind === 'environment');
    expect(failure?.title).toBe('run_terminal_cmd: docker-compose up -d');
    expect(failure?.text).toBe('zsh: command not found: docker-compose');
  });

  it('are found from the history folder, one file, a folder of projects, or REMEM_SPECSTORY, and read again only when changed', () => {
    const root = tempDir('remem-specstory-');
    const shop = project(root, 'shop', [OLDER]);
    project(root, 'blog', [CURSOR]);
    project(join(root, 'shop', 'node_modules'), 'dep', [CLI]);
    expect(ingest(tempDir(), ['--specstory', join(shop, '.specstory', 'history')]).filesRead).toBe(1);
    expect(
      ingest(tempDir(), ['--specstory', join(shop, '.specstory', 'history', OLDER.name)]).filesRead,
    ).toBe(1);
    const home = tempDir();
    expect(ingest(home, ['--specstory', root]).filesRead).toBe(2);
    const again = ingest(home, ['--specstory', root]);
    expect([again.filesRead, again.filesUnchanged]).toEqual([0, 2]);
    // SpecStory writes the file again as the chat goes on: only what was added is read.
    appendFileSync(
      join(shop, '.specstory', 'history', OLDER.name),
      [
        '',
        '---',
        '',
        '_**Assistant**_',
        '',
        'Switched to pnpm.',
        '',
        '---',
        '',
        '_**User**_',
        '',
        'never run npm here again',
        '',
      ].join('\n'),
    );
    const grown = ingest(home, ['--specstory', root]);
    expect([grown.filesRead, grown.filesRestarted]).toEqual([1, 0]);
    expect(correctionsSaid(episodesOf(home))).toContain('never run npm here again');
    const bare = tempDir();
    const report = ingest(bare, [], {
      REMEM_SPECSTORY: join(root, 'blog'),
      CLAUDE_CONFIG_DIR: join(root, 'none'),
      CODEX_HOME: join(root, 'none'),
    });
    expect(report.filesRead).toBe(1);
  });

  it('refuse a path that is not an export, and warn of one with no message of the person while reading the rest', () => {
    const home = tempDir();
    const root = tempDir('remem-specstory-');
    const missing = remem(['ingest', '--specstory', join(root, 'nowhere')], { home, now: READ_NOW });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--specstory .*nowhere: no such file or folder/);
    writeFileSync(join(root, 'notes.txt'), 'hello');
    const refused = remem(['ingest', '--specstory', join(root, 'notes.txt')], { home, now: READ_NOW });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not a SpecStory export/);
    const shop = project(root, 'shop', [CLI, { name: 'README.md', text: '# notes\n\nnothing of a chat\n' }]);
    const report = ingest(home, ['--specstory', shop]);
    expect(report.filesRead).toBe(1);
    expect(report.warnings).toEqual([
      {
        file: join(shop, '.specstory', 'history', 'README.md'),
        reason: 'not read: no message of the person in it',
      },
    ]);
  });

  it('leave out an export of a chat whose own transcript is read, in the same run or before', () => {
    const root = tempDir('remem-specstory-');
    const shop = project(root, 'shop', [CLI, OLDER]);
    const claude = join(root, 'claude');
    // The chat the command line's export copies, as Claude Code keeps it.
    claudeSession(claude, shop, '5c7d5c23-0691-4467-b98e-0fb865b4a639', '2026-07-13T13:40:49.000Z', STEPS);
    const copy = join(shop, '.specstory', 'history', CLI.name);
    const reason =
      'not read: a copy of claude-code session 5c7d5c23-0691-4467-b98e-0fb865b4a639, read from its own transcript';
    const together = tempDir();
    const both = ingest(together, ['--claude', claude, '--specstory', shop]);
    expect(both.warnings).toEqual([{ file: copy, reason }]);
    expect(both.filesRead).toBe(2);
    expect(correctionsSaid(episodesOf(together))).not.toContain(
      "it still fails on CI, you didn't run it with the CI seed",
    );
    const later = tempDir();
    ingest(later, ['--claude', claude]);
    expect(ingest(later, ['--specstory', shop]).warnings).toEqual([{ file: copy, reason }]);
    // A copy of a chat whose transcript is gone, and was never read, is read.
    const alone = tempDir();
    const report = ingest(alone, ['--specstory', shop]);
    expect([report.filesRead, report.warningCount]).toEqual([2, 0]);
  });
});
