import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();
const lockModule = join(fileURLToPath(import.meta.url), '..', '..', '..', 'dist', 'core', 'lock.js');

/** A process that takes the lock, holds it a moment and lets it go: exit 0 when it had it, 1 when told it is held. */
const holder = `
  const { acquireLock } = await import(${JSON.stringify(lockModule)});
  try {
    const release = acquireLock(process.argv[1], 'run');
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
  } catch (error) {
    process.exit(error.code === 'busy' ? 1 : 2);
  }
`;

function take(home: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', holder, home], { stdio: 'ignore' });
    child.on('exit', resolve);
  });
}

describe('the run lock', () => {
  it('goes to exactly one of two processes that ask for it at the same moment, every time', async () => {
    for (let trial = 0; trial < 30; trial++) {
      const home = tempDir();
      const codes = await Promise.all([take(home), take(home)]);
      expect(codes.sort(), `trial ${trial}`).toEqual([0, 1]);
    }
  }, 120_000);
});
