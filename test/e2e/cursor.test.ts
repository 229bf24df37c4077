/**
 * Cursor chats read from Cursor's own SQLite store, opened read-only: the same turns as a Claude Code session give
 * the same episodes; reads are incremental and archived, `--from-raw` rebuilds them, a bad row is a warning, a lock
 * Cursor holds is waited out or reported, the store is found without flags, and status lists it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { digest, episodesOf, ingest } from './readers.ts';
import { claudeSession, cursorSession, type Episode, gist, PNPM, STEPS } from './sessions.ts';

const tempDir = useTempDirs();
const PROJECT = '/tmp/remem-cursor-project';
const START = '2026-11-01T10:00:00.000Z';
const NOW = '2026-11-01T23:00:00.000Z';

describe('Cursor chats', () => {
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
    const user = join(tempDir('remem-cursor-'), 'User');
    const store = cursorSession(user, PROJECT, 'c0mp-a1', START, STEPS);
    const before = digest(store);
    const report = ingest(home, ['--cursor', user]);
    expect(report.warningCount).toBe(0);
    const episodes = episodesOf(home);
    expect(gist(claudeEpisodes).map((episode) => episode.kind)).toEqual(
      expect.arrayContaining(['correction', 'error']),
    );
    expect(gist(episodes)).toEqual(gist(claudeEpisodes));
    expect(new Set(episodes.map((episode) => episode.agent))).toEqual(new Set(['cursor']));
    expect(episodes.find((episode) => episode.said === PNPM)?.agentBefore).toBe(
      "I'll add it with npm install lodash now.",
    );
    expect(digest(store)).toBe(before);
  });

  it('is found without flags under $XDG_CONFIG_HOME/Cursor/User, remem run finds it too, and status and doctor list it', () => {
    const home = tempDir();
    const xdg = tempDir('remem-xdg-');
    cursorSession(join(xdg, 'Cursor', 'User'), PROJECT, 'c0mp-b1', START, STEPS);
    const env = { XDG_CONFIG_HOME: xdg };
    expect(ingest(home, [], env).filesRead).toBe(1);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    const status = remem(['status', '--json'], { home, now: NOW, env });
    expect(status.json<{ sources: unknown[] }>().sources).toEqual([
      { agent: 'cursor', files: 1, sessions: 1, lastRead: NOW },
    ]);
    expect(remem(['doctor'], { home, now: NOW, env }).stdout).toMatch(/cursor\s+1 files, 1 sessions/);
    // The nightly run finds them the same way.
    const night = tempDir();
    const run = remem(['run'], { home: night, now: NOW, env });
    expect(run.code, run.stderr).toBe(0);
    expect(gist(episodesOf(night))).toEqual(gist(claudeEpisodes));
  });

  it('is read incrementally, again from the start when a bubble changed, and rebuilt from raw/ alone', () => {
    const home = tempDir();
    const user = join(tempDir('remem-cursor-'), 'User');
    const reset = () => rmSync(user, { recursive: true });
    cursorSession(user, PROJECT, 'c0mp-c1', START, STEPS.slice(0, 2));
    ingest(home, ['--cursor', user]);
    expect(gist(episodesOf(home))).toEqual([]);
    expect(ingest(home, ['--cursor', user]).filesUnchanged).toBe(1);
    // The chat goes on: new bubbles only.
    reset();
    cursorSession(user, PROJECT, 'c0mp-c1', START, STEPS.slice(0, 4));
    const grown = ingest(home, ['--cursor', user]);
    expect(grown.filesRestarted).toBe(0);
    expect(grown.linesRead).toBe(2);
    // A call's bubble is written again as it ends: the chat is read again from its start.
    reset();
    cursorSession(user, PROJECT, 'c0mp-c1', START, STEPS);
    const changed = ingest(home, ['--cursor', user]);
    expect(changed.filesRead).toBe(1);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    reset();
    const rebuilt = remem(['ingest', '--from-raw', '--json'], { home, now: NOW });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
  });

  it('names a bubble that is not JSON and one that has no row, and reads the rest', () => {
    const home = tempDir();
    const user = join(tempDir('remem-cursor-'), 'User');
    const store = cursorSession(user, PROJECT, 'c0mp-d1', START, STEPS);
    const db = new Database(store);
    const composer = db
      .prepare("SELECT value FROM cursorDiskKV WHERE key = 'composerData:c0mp-d1'")
      .get() as {
      value: string;
    };
    const data = JSON.parse(composer.value) as { fullConversationHeadersOnly: unknown[] };
    data.fullConversationHeadersOnly.splice(
      1,
      0,
      { bubbleId: 'half', type: 2 },
      { bubbleId: 'gone', type: 2 },
    );
    db.prepare("UPDATE cursorDiskKV SET value = ? WHERE key = 'composerData:c0mp-d1'").run(
      JSON.stringify(data),
    );
    db.prepare("INSERT INTO cursorDiskKV (key, value) VALUES ('bubbleId:c0mp-d1:half', '{half')").run();
    db.close();
    const report = ingest(home, ['--cursor', user]);
    expect(report.warnings).toEqual([
      { file: `${store}#c0mp-d1`, line: 3, reason: 'bubble row whose value is not a JSON object' },
      { file: `${store}#c0mp-d1`, line: 4, reason: 'the chat names a bubble that has no row' },
    ]);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
  });

  it('reads while Cursor writes, and reports a store locked past the wait, reading it the next time', () => {
    const home = tempDir();
    const user = join(tempDir('remem-cursor-'), 'User');
    const store = cursorSession(user, PROJECT, 'c0mp-e1', START, STEPS);
    const writer = new Database(store);
    // A write lock held in a rollback journal lets readers read until the writer commits.
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("UPDATE cursorDiskKV SET value = value WHERE key = 'composerData:c0mp-e1'").run();
    expect(ingest(home, ['--cursor', user]).filesRead).toBe(1);
    writer.exec('ROLLBACK');
    // An exclusive lock: the run says so, and loses nothing.
    writer.exec('BEGIN EXCLUSIVE');
    writer.prepare("UPDATE cursorDiskKV SET value = value WHERE key = 'composerData:c0mp-e1'").run();
    const later = tempDir();
    const locked = remem(['ingest', '--json', '--cursor', user], { home: later, now: NOW });
    expect(locked.code, locked.stderr).toBe(0);
    expect(locked.json<{ warnings: { file: string; reason: string }[] }>().warnings).toEqual([
      { file: store, reason: expect.stringMatching(/^not read: .*locked/) },
    ]);
    writer.exec('ROLLBACK');
    writer.close();
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    expect(ingest(later, ['--cursor', user]).filesRead).toBe(1);
    expect(gist(episodesOf(later))).toEqual(gist(claudeEpisodes));
  });
});
