/**
 * Continue's sessions read where Continue keeps them (`~/.continue/sessions/`, or `CONTINUE_GLOBAL_DIR`): the
 * person's corrections become episodes of the workspace each session names, at the time Continue's index gives it;
 * a file that is not a session is a warning and the others are read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { agentsAndProjects, episodesOf, ingest, READ_NOW } from './readers.ts';

const tempDir = useTempDirs();

const message = (role: string, content: unknown) => ({ message: { role, content }, contextItems: [] });

function continueFolder(root: string): string {
  const dir = join(root, '.continue');
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  writeFileSync(
    join(dir, 'sessions', 'a1.json'),
    JSON.stringify({
      sessionId: 'a1',
      title: 'lodash',
      workspaceDirectory: 'file:///work/shop',
      history: [
        message('user', 'add lodash to the project'),
        message('assistant', "I'll add it with npm install lodash now."),
        message('user', [{ type: 'text', text: 'please use pnpm, not npm — this repo has a pnpm lockfile' }]),
        message('assistant', 'Understood, pnpm it is.'),
      ],
    }),
  );
  writeFileSync(join(dir, 'sessions', 'b2.json'), '{"sessionId": "b2", "history": ');
  writeFileSync(
    join(dir, 'sessions', 'sessions.json'),
    JSON.stringify([
      {
        sessionId: 'a1',
        title: 'lodash',
        dateCreated: String(Date.parse('2026-10-30T09:00:00.000Z')),
        workspaceDirectory: 'file:///work/shop',
      },
    ]),
  );
  return dir;
}

describe('Continue sessions', () => {
  it('give the corrections as episodes of the workspace, and a file that is not a session is a warning', () => {
    const home = tempDir();
    const dir = continueFolder(tempDir('remem-continue-'));
    const report = ingest(home, ['--continue', dir]);
    expect(report.filesRead).toBe(1);
    expect(report.warnings).toEqual([
      {
        file: join(dir, 'sessions', 'b2.json'),
        reason: 'not read: not a Continue session (no history array)',
      },
    ]);
    const episodes = episodesOf(home);
    const correction = episodes.find((episode) => episode.kind === 'correction');
    expect(correction?.said).toBe('please use pnpm, not npm — this repo has a pnpm lockfile');
    expect(correction?.agentBefore).toBe("I'll add it with npm install lodash now.");
    expect(agentsAndProjects(episodes)).toEqual(new Set(['continue /work/shop']));
    expect(new Set(episodes.map((episode) => episode.happenedAt))).toEqual(
      new Set(['2026-10-30T09:00:00.000Z']),
    );
    expect(ingest(home, ['--continue', dir]).filesRead).toBe(0);
  });

  it('give the agent’s failed tool calls as its mistakes, and the calls the person turned down as refusals', () => {
    const root = tempDir('remem-continue-');
    const dir = join(root, '.continue');
    mkdirSync(join(dir, 'sessions'), { recursive: true });
    const call = (id: string, name: string, args: unknown, status: string, content?: string) => ({
      toolCallId: id,
      toolCall: { id, type: 'function', function: { name, arguments: JSON.stringify(args) } },
      status,
      parsedArgs: args,
      ...(content ? { output: [{ name: 'Tool Call Error', description: 'Tool Call Failed', content }] } : {}),
    });
    writeFileSync(
      join(dir, 'sessions', 'c3.json'),
      JSON.stringify({
        sessionId: 'c3',
        title: 'util',
        workspaceDirectory: '/work/shop',
        history: [
          message('user', 'fix the date helper'),
          {
            ...message('assistant', 'Reading the helper first.'),
            toolCallStates: [
              call(
                'k1',
                'read_file',
                { filepath: 'src/utils/date.ts' },
                'errored',
                'read_file failed with the message: File src/utils/date.ts does not exist\n\nPlease try something else or request further instructions.',
              ),
            ],
          },
          {
            ...message('assistant', 'I will rewrite it.'),
            toolCallStates: [
              call('k2', 'create_new_file', { filepath: 'src/date.ts', contents: '' }, 'canceled'),
            ],
          },
        ],
      }),
    );
    const home = tempDir();
    expect(ingest(home, ['--continue', dir]).filesRead).toBe(1);
    const episodes = episodesOf(home);
    const failure = episodes.find((episode) => episode.kind === 'error');
    expect(failure?.title).toBe('read_file: src/utils/date.ts');
    expect(failure?.text).toContain('does not exist');
    const session = episodes.find((episode) => episode.kind === 'session');
    expect(session?.detail).toMatchObject({
      failures: 1,
      refusals: 1,
      tools: { read_file: 1, create_new_file: 1 },
    });
  });

  it('are found without flags in CONTINUE_GLOBAL_DIR, and --continue refuses a folder with no sessions/', () => {
    const root = tempDir('remem-continue-');
    const dir = continueFolder(root);
    const home = tempDir();
    const report = ingest(home, [], {
      CONTINUE_GLOBAL_DIR: dir,
      CLAUDE_CONFIG_DIR: join(root, 'none'),
      CODEX_HOME: join(root, 'none'),
    });
    expect(report.filesRead).toBe(1);
    const wrong = remem(['ingest', '--continue', join(dir, 'sessions')], { home, now: READ_NOW });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/this is the sessions\/ folder itself/);
  });
});
