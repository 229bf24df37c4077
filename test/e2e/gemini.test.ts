/**
 * Gemini CLI sessions read where Gemini CLI keeps them: the same turns as a Claude Code session give the same
 * episodes; reads are incremental and archived, `--from-raw` rebuilds them, a bad line is a warning, the folder is
 * found without flags, and status and doctor list the source.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { episodesOf, ingest } from './readers.ts';
import { claudeSession, type Episode, geminiSession, gist, PNPM, STEPS } from './sessions.ts';

const tempDir = useTempDirs();
const PROJECT = '/tmp/remem-gemini-project';
const HASH = 'a3f1c0de9b7e4d2c8f6a5b4c3d2e1f00a3f1c0de9b7e4d2c8f6a5b4c3d2e1f00';
const START = '2026-11-01T10:00:00.000Z';
const NOW = '2026-11-01T23:00:00.000Z';

describe('Gemini CLI sessions', () => {
  let claudeEpisodes: Episode[];
  beforeAll(() => {
    const home = tempDir();
    const claude = join(tempDir('remem-claude-'), 'claude');
    claudeSession(claude, PROJECT, 'sess-c', START, STEPS);
    ingest(home, ['--claude', claude]);
    claudeEpisodes = episodesOf(home);
  });

  it('give the same episodes as the same turns in Claude Code', () => {
    const home = tempDir();
    const gemini = join(tempDir('remem-gemini-'), '.gemini');
    geminiSession(gemini, HASH, 'f0e1d2c3-b4a5-4697-8877-665544332211', START, STEPS);
    const report = ingest(home, ['--gemini', gemini]);
    expect(report.warningCount).toBe(0);
    const episodes = episodesOf(home);
    expect(claudeEpisodes.map((episode) => episode.kind).sort()).toEqual(
      expect.arrayContaining(['correction', 'error']),
    );
    expect(gist(episodes)).toEqual(gist(claudeEpisodes));
    expect(new Set(episodes.map((episode) => episode.agent))).toEqual(new Set(['gemini-cli']));
    const correction = episodes.find((episode) => episode.said === PNPM);
    expect(correction?.agentBefore).toBe("I'll add it with npm install lodash now.");
  });

  it('are found without flags under $GEMINI_CLI_HOME/.gemini, and status and doctor list them', () => {
    const home = tempDir();
    const profile = tempDir('remem-gemini-home-');
    geminiSession(join(profile, '.gemini'), HASH, 'a1b2c3d4-0000-4000-8000-000000000001', START, STEPS);
    const env = { GEMINI_CLI_HOME: profile };
    const report = ingest(home, [], env);
    expect(report.filesRead).toBe(1);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    const status = remem(['status', '--json'], { home, now: NOW, env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.json<{ sources: unknown[] }>().sources).toEqual([
      { agent: 'gemini-cli', files: 1, sessions: 1, lastRead: NOW },
    ]);
    expect(remem(['status'], { home, now: NOW, env }).stdout).toMatch(
      /gemini-cli\s+1 files, 1 sessions, last read 2026-11-01T23:00:00\.000Z/,
    );
    const doctor = remem(['doctor'], { home, now: NOW, env });
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/gemini-cli\s+1 files, 1 sessions/);
  });

  it('are read incrementally, rewinds honoured, and rebuilt from the archive alone', () => {
    const home = tempDir();
    const gemini = join(tempDir('remem-gemini-'), '.gemini');
    const first = STEPS.slice(0, 2);
    const file = geminiSession(gemini, HASH, 'b1b2c3d4-0000-4000-8000-000000000002', START, first);
    ingest(home, ['--gemini', gemini]);
    expect(gist(episodesOf(home))).toEqual([]);
    // The rest of the session is appended, as Gemini CLI appends it.
    const whole = geminiSession(
      join(tempDir(), 'g'),
      HASH,
      'b1b2c3d4-0000-4000-8000-000000000002',
      START,
      STEPS,
    );
    const before = readFileSync(file, 'utf8');
    const after = readFileSync(whole, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    appendFileSync(file, after.slice(before.length));
    const again = ingest(home, ['--gemini', gemini]);
    expect(again.filesRead).toBe(1);
    expect(again.linesRead).toBe(after.split('\n').length - before.split('\n').length);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
    expect(ingest(home, ['--gemini', gemini]).filesUnchanged).toBe(1);

    // The person rewinds to their correction: it and everything after it leave the conversation.
    const correctionId = 'b1b2c3d4-0000-4000-8000-000000000002-2';
    appendFileSync(file, `${JSON.stringify({ $rewindTo: correctionId })}\n`);
    ingest(home, ['--gemini', gemini]);
    expect(gist(episodesOf(home))).toEqual([]);

    // The agent's copy goes away; the archive still holds every byte read.
    writeFileSync(file, '');
    const rebuilt = remem(['ingest', '--from-raw', '--json'], { home, now: NOW });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(gist(episodesOf(home))).toEqual([]);
  });

  it('rebuilds the same episodes from raw/ after the session file is gone', () => {
    const home = tempDir();
    const gemini = join(tempDir('remem-gemini-'), '.gemini');
    const file = geminiSession(gemini, HASH, 'c1b2c3d4-0000-4000-8000-000000000003', START, STEPS);
    ingest(home, ['--gemini', gemini]);
    const read = gist(episodesOf(home));
    writeFileSync(file, '');
    const rebuilt = remem(['ingest', '--from-raw', '--json'], { home, now: NOW });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(gist(episodesOf(home))).toEqual(read);
  });

  it('names a bad line by file and line and reads the rest', () => {
    const home = tempDir();
    const gemini = join(tempDir('remem-gemini-'), '.gemini');
    const file = geminiSession(gemini, HASH, 'd1b2c3d4-0000-4000-8000-000000000004', START, STEPS);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 0, '{"id": "half a line', '{"kind": "neither"}');
    writeFileSync(file, lines.join('\n'));
    const report = ingest(home, ['--gemini', gemini]);
    expect(report.warnings).toEqual([
      { file, line: 3, reason: expect.stringMatching(/^not JSON/) },
      { file, line: 4, reason: 'neither a message, a rewind nor session metadata' },
    ]);
    expect(gist(episodesOf(home))).toEqual(gist(claudeEpisodes));
  });
});
