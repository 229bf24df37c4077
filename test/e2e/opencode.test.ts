/**
 * OpenCode sessions read from OpenCode's own SQLite store, opened read-only: the same turns as a Claude Code session
 * give the same episodes; reads are incremental and archived, `--from-raw` rebuilds them, a bad row is a warning,
 * a lock the agent holds is waited out or reported, the store is found without flags, and status lists it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { digest, episodesOf, ingest } from './readers.ts';
import { claudeSession, type Episode, gist, opencodeSession, PNPM, STEPS } from './sessions.ts';

const tempDir = useTempDirs();
const PROJECT = '/tmp/remem-opencode-project';
const START = '2026-11-01T10:00:00.000Z';
const NOW = '2026-11-01T23:00:00.000Z';

describe('OpenCode sessions', () => {
  let claudeEpisodes: Episode[];
  beforeAll(() => {
    const home = tempDir();
    const claude = join(tempDir('remem-claude-'), 'claude');
    claudeSession(claude, PROJECT, 'sess-c', START, STEPS);
    ingest(home, ['--claude', claude]);
    claudeEpisodes = episodesOf(home);
  });

  it('give the same episodes as the same turns in Claude Code, and the store is never written', () => {
    const home = tempDir();
    const data = join(tempDir('remem-opencode-'), 'opencode');
    const store = opencodeSession(data, PROJECT, 'ses_a1', START, STEPS);
    const before = digest(store);
    const report = ingest(home, ['--opencode', data]);
    expect(report.warningCount).toBe(0);
    const episodes = episodesOf(home);
    expect(gist(claudeEpisodes).map((episode) => episode.kind)).toEqual(
      expect.arrayContaining(['correction', 'error']),
    );
    expect(gist(episodes)).toEqual(gist(claudeEpisodes));
    expect(new Set(episodes.map((episode) => episode.agent))).toEqual(new Set(['opencode']));
    expect(episodes.find((episode) => episode.said === PNPM)?.agentBefore).toBe(
      "I'll add it with npm install lodash now.",
    );
    expect(digest(store)).toBe(before);
  });

  it('is found without flags under $XDG_DATA_HOME/opencode, and status and doctor list it', () => {
    const home = tempDir();
    const xdg = tempDir('remem-xdg-');
    opencodeSession(join(xdg, 'opencode'), PROJECT, 'ses_b1', START, STEPS);
    const env = { XDG_DATA_HOME: xdg };
    expect(ingest(home, [], env).filesRead).toBe(1);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    const status = remem(['status', '--json'], { home, now: NOW, env });
    expect(status.json<{ sources: unknown[] }>().sources).toEqual([
      { agent: 'opencode', files: 1, sessions: 1, lastRead: NOW },
    ]);
    expect(remem(['doctor'], { home, now: NOW, env }).stdout).toMatch(/opencode\s+1 files, 1 sessions/);
  });

  it('is read incrementally, again from the start when a row changed, and rebuilt from raw/ alone', () => {
    const home = tempDir();
    const data = join(tempDir('remem-opencode-'), 'opencode');
    opencodeSession(data, PROJECT, 'ses_c1', START, STEPS.slice(0, 2));
    ingest(home, ['--opencode', data]);
    expect(gist(episodesOf(home))).toEqual([]);
    expect(ingest(home, ['--opencode', data]).filesUnchanged).toBe(1);
    // The session goes on: new rows only.
    rmSync(join(data, 'opencode.db'));
    opencodeSession(data, PROJECT, 'ses_c1', START, STEPS.slice(0, 4));
    const grown = ingest(home, ['--opencode', data]);
    expect(grown.filesRestarted).toBe(0);
    expect(grown.linesRead).toBe(4);
    // A call's state changes in place: the session is read again from its start.
    rmSync(join(data, 'opencode.db'));
    opencodeSession(data, PROJECT, 'ses_c1', START, STEPS);
    const changed = ingest(home, ['--opencode', data]);
    expect(changed.filesRead).toBe(1);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    rmSync(data, { recursive: true });
    const rebuilt = remem(['ingest', '--from-raw', '--json'], { home, now: NOW });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
  });

  it('names a row that is not JSON and reads the rest', () => {
    const home = tempDir();
    const data = join(tempDir('remem-opencode-'), 'opencode');
    const store = opencodeSession(data, PROJECT, 'ses_d1', START, STEPS);
    const db = new Database(store);
    db.prepare(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_ses_d1_0000a', 'msg_ses_d1_0000', 'ses_d1', 0, 0, '{half')",
    ).run();
    db.close();
    const report = ingest(home, ['--opencode', data]);
    expect(report.warnings).toEqual([
      { file: `${store}#ses_d1`, line: 4, reason: 'part row whose data is not a JSON object' },
    ]);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
  });

  it('reads while OpenCode writes, and reports a store locked past the wait, reading it the next time', () => {
    const home = tempDir();
    const data = join(tempDir('remem-opencode-'), 'opencode');
    const store = opencodeSession(data, PROJECT, 'ses_e1', START, STEPS);
    // WAL, as OpenCode keeps it: a writer in the middle of a transaction does not stop a reader.
    const writer = new Database(store);
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("UPDATE session SET title = 'renamed' WHERE id = 'ses_e1'").run();
    expect(ingest(home, ['--opencode', data]).filesRead).toBe(1);
    writer.exec('ROLLBACK');
    // Another journal mode, and an exclusive lock: the run says so, and loses nothing.
    writer.pragma('journal_mode = DELETE');
    writer.exec('BEGIN EXCLUSIVE');
    writer.prepare("UPDATE session SET title = 'locked' WHERE id = 'ses_e1'").run();
    const later = tempDir();
    const locked = remem(['ingest', '--json', '--opencode', data], { home: later, now: NOW });
    expect(locked.code, locked.stderr).toBe(0);
    expect(locked.json<{ warnings: { file: string; reason: string }[] }>().warnings).toEqual([
      { file: store, reason: expect.stringMatching(/^not read: .*locked/) },
    ]);
    writer.exec('ROLLBACK');
    writer.close();
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    expect(ingest(later, ['--opencode', data]).filesRead).toBe(1);
    expect(gist(episodesOf(later))).toEqual(gist(claudeEpisodes));
  });
});
