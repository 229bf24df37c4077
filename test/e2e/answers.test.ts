import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const now = '2026-03-01T00:00:00.000Z';

describe('a person gets one clear line and the right exit code', () => {
  it('remem --version prints the version', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    const run = remem(['--version'], { home: tempDir(), now });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it.each([
    [['recall', 'pnpm', '-k', '0'], '--k must be from 1 to 1000, got 0'],
    [['serve', '--port', '99999'], '--port must be from 0 to 65535, got 99999'],
    [['proxy', '--port', '-1'], '--port'],
  ])('remem %j is bad usage, said in one line', (args, said) => {
    const run = remem(args, { home: tempDir(), now });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(said);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('ingest of a folder that is not there, or one level too deep, fails in one line that says what to pass', () => {
    const home = tempDir();
    const missing = remem(['ingest', '--claude', '/nonexistent/dir'], { home, now });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('remem: --claude /nonexistent/dir: no such folder');
    const claude = join(tempDir(), '.claude');
    mkdirSync(join(claude, 'projects', '-home-dev-app'), { recursive: true });
    const deep = remem(['ingest', '--claude', join(claude, 'projects')], { home, now });
    expect(deep.code).toBe(1);
    expect(deep.stderr).toContain(`pass the folder that holds it: --claude ${claude}`);
    expect(deep.stderr.trim().split('\n')).toHaveLength(1);
    const codex = remem(['ingest', '--codex', tempDir()], { home, now });
    expect(codex.code).toBe(1);
    expect(codex.stderr).toContain('holds no sessions/ folder');
    expect(remem(['ingest', '--claude', claude], { home, now }).code).toBe(0);
  });

  it.each([['lessons'], ['recall', 'pnpm'], ['episodes']])(
    'remem --home on a folder that is not there: %j says so and creates nothing',
    (...args) => {
      const home = join(tempDir(), 'missing', 'x');
      const run = remem(['--home', home, ...args], { home: tempDir(), now });
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(
        `remem: no memory at ${home} yet: nothing has been read or learned there (remem ingest or remem run makes it)`,
      );
      expect(existsSync(join(home, '..'))).toBe(false);
    },
  );

  it.each([['status'], ['lessons'], ['recall', 'pnpm'], ['doctor'], ['run']])(
    'remem %j on a memory this user may not write says so in one line, without a stack trace',
    (...args) => {
      const root = tempDir();
      const home = join(root, 'home');
      const event =
        '{"kind":"correction","said":"no, use uv not pip","session":"s","at":"2026-11-01T10:00:00Z"}\n';
      expect(remem(['ingest', '--events', '-'], { home, now, input: event }).code).toBe(0);
      chmodSync(root, 0o755);
      for (const name of readdirSync(home)) chmodSync(join(home, name), 0o444);
      chmodSync(home, 0o555);
      // Another user, as a person whose memory another account made: root may write anywhere.
      const run = spawnSync(
        'setpriv',
        [
          '--reuid',
          '65534',
          '--regid',
          '65534',
          '--clear-groups',
          process.execPath,
          join(repoRoot, 'bin', 'remem.js'),
          ...args,
        ],
        {
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: join(root, 'user'),
            REMEM_HOME: home,
            REMEM_NOW: now,
          },
          encoding: 'utf8',
        },
      );
      chmodSync(home, 0o755);
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^remem: the memory(?: cannot be written here|'s store cannot be opened)/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
  );
});
