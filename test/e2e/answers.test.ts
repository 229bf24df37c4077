import { readFileSync } from 'node:fs';
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
});
