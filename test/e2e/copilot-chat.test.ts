/**
 * Copilot Chat sessions read from VS Code's own session files, never written: the same turns as a Claude Code
 * session give the same episodes, from the log VS Code writes now and from the whole document older versions wrote;
 * reads are incremental and archived, `--from-raw` rebuilds them, a bad log line is a warning, the sessions are found
 * without flags, and status lists them.
 */
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { digest, episodesOf, ingest } from './readers.ts';
import { claudeSession, copilotSession, type Episode, gist, PNPM, STEPS } from './sessions.ts';

const tempDir = useTempDirs();
const PROJECT = '/tmp/remem-copilot-project';
const START = '2026-11-01T10:00:00.000Z';
const NOW = '2026-11-01T23:00:00.000Z';

describe('Copilot Chat sessions', () => {
  let claudeEpisodes: Episode[];
  beforeAll(() => {
    const home = tempDir();
    const claude = join(tempDir('remem-claude-'), 'claude');
    claudeSession(claude, PROJECT, 'sess-c', START, STEPS);
    ingest(home, ['--claude', claude]);
    claudeEpisodes = episodesOf(home);
  });

  it('give the same episodes as the same turns in Claude Code, from the log and the whole document alike', () => {
    for (const log of [true, false]) {
      const home = tempDir();
      const user = join(tempDir('remem-vscode-'), 'User');
      const file = copilotSession(user, PROJECT, `s-a-${log}`, START, STEPS, { log });
      const before = digest(file);
      const report = ingest(home, ['--vscode', user]);
      expect(report.warningCount).toBe(0);
      const episodes = episodesOf(home);
      expect(gist(claudeEpisodes).map((episode) => episode.kind)).toEqual(
        expect.arrayContaining(['correction', 'error']),
      );
      expect(gist(episodes)).toEqual(gist(claudeEpisodes));
      expect(new Set(episodes.map((episode) => episode.agent))).toEqual(new Set(['copilot-chat']));
      expect(episodes.find((episode) => episode.said === PNPM)?.agentBefore).toBe(
        "I'll add it with npm install lodash now.",
      );
      expect(digest(file)).toBe(before);
    }
  });

  it('are found without flags under $XDG_CONFIG_HOME/Code/User, remem run finds them too, and status and doctor list them', () => {
    const home = tempDir();
    const xdg = tempDir('remem-xdg-');
    copilotSession(join(xdg, 'Code', 'User'), PROJECT, 's-b1', START, STEPS);
    const env = { XDG_CONFIG_HOME: xdg };
    expect(ingest(home, [], env).filesRead).toBe(1);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    const status = remem(['status', '--json'], { home, now: NOW, env });
    expect(status.json<{ sources: unknown[] }>().sources).toEqual([
      { agent: 'copilot-chat', files: 1, sessions: 1, lastRead: NOW },
    ]);
    expect(remem(['doctor'], { home, now: NOW, env }).stdout).toMatch(/copilot-chat\s+1 files, 1 sessions/);
    // The nightly run finds them the same way.
    const night = tempDir();
    const run = remem(['run'], { home: night, now: NOW, env });
    expect(run.code, run.stderr).toBe(0);
    expect(gist(episodesOf(night))).toEqual(gist(claudeEpisodes));
  });

  it('are read incrementally, again from the start when a part changed, and rebuilt from raw/ alone', () => {
    const home = tempDir();
    const user = join(tempDir('remem-vscode-'), 'User');
    const reset = () => rmSync(user, { recursive: true });
    copilotSession(user, PROJECT, 's-c1', START, STEPS.slice(0, 2));
    ingest(home, ['--vscode', user]);
    expect(gist(episodesOf(home))).toEqual([]);
    expect(ingest(home, ['--vscode', user]).filesUnchanged).toBe(1);
    // The chat goes on: a new request, and its answer.
    reset();
    copilotSession(user, PROJECT, 's-c1', START, STEPS.slice(0, 4));
    const grown = ingest(home, ['--vscode', user]);
    expect(grown.filesRestarted).toBe(0);
    expect(grown.linesRead).toBe(3);
    // A call's part is written again as it ends: the session is read again from its start.
    reset();
    copilotSession(user, PROJECT, 's-c1', START, STEPS);
    const changed = ingest(home, ['--vscode', user]);
    expect(changed.filesRead).toBe(1);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    reset();
    const rebuilt = remem(['ingest', '--from-raw', '--json'], { home, now: NOW });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
  });

  it('names a log line that is not JSON and a change that leads nowhere, and reads the rest', () => {
    const home = tempDir();
    const user = join(tempDir('remem-vscode-'), 'User');
    const file = copilotSession(user, PROJECT, 's-d1', START, STEPS);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    lines.splice(
      2,
      0,
      '{"kind":2,"k":["requests",0,"resp',
      '{"kind":1,"k":["requests",9,"modelState"],"v":{}}',
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    const report = ingest(home, ['--vscode', user]);
    expect(report.warnings).toEqual([
      { file, line: 2, reason: 'line 3 of the session log skipped: not JSON' },
      {
        file,
        line: 3,
        reason:
          'line 4 of the session log skipped: a change at requests.9.modelState, which is not in the session',
      },
    ]);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    // A file that holds no session at all is named, and the run goes on.
    appendFileSync(join(user, 'workspaceStorage', 'ws-s-d1', 'chatSessions', 'broken.json'), '{"requ');
    const again = ingest(home, ['--vscode', user]);
    expect(again.warnings).toEqual([
      {
        file: join(user, 'workspaceStorage', 'ws-s-d1', 'chatSessions', 'broken.json'),
        reason: 'not read: no chat session in it',
      },
    ]);
  });

  it('are read when named by path: where VS Code keeps them, and copied into a repository', () => {
    for (const log of [true, false]) {
      const home = tempDir();
      const user = join(tempDir('remem-vscode-'), 'User');
      const file = copilotSession(user, PROJECT, `s-t-${log}`, START, STEPS, { log });
      ingest(home, ['--transcript', file]);
      const kept = episodesOf(home);
      expect(gist(kept)).toEqual(gist(claudeEpisodes));
      // Where VS Code keeps it, the workspace.json beside chatSessions/ names the project.
      expect(new Set(kept.map((episode) => episode.project))).toEqual(new Set([PROJECT]));
      // Copied into a repository, its project is the repository it sits in.
      const repo = tempDir('remem-repo-');
      mkdirSync(join(repo, '.git'));
      mkdirSync(join(repo, 'chats'));
      copyFileSync(file, join(repo, 'chats', `s-t-${log}.${log ? 'jsonl' : 'json'}`));
      const other = tempDir();
      const report = ingest(other, ['--transcript', repo]);
      expect(report.warningCount).toBe(0);
      const copied = episodesOf(other);
      expect(gist(copied)).toEqual(gist(claudeEpisodes));
      expect(new Set(copied.map((episode) => episode.agent))).toEqual(new Set(['copilot-chat']));
      expect(new Set(copied.map((episode) => episode.project))).toEqual(new Set([repo]));
    }
  });
});
