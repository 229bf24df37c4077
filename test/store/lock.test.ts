import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();
const lockModule = join(fileURLToPath(import.meta.url), '..', '..', '..', 'dist', 'store', 'lock.js');

/**
 * A process that asks for the lock at the same moment as the other (both wait until both are ready), and exits 0
 * when it had it, 1 when told it is held. The one that has it holds it until the other has been told, however slow
 * a loaded machine makes the other's start.
 */
const holder = `
  const { acquireLock } = await import(${JSON.stringify(lockModule)});
  const { readdirSync, writeFileSync } = await import('node:fs');
  const home = process.argv[1];
  const waitFor = async (prefix, count) => {
    const until = Date.now() + 20000;
    while (readdirSync(home).filter((name) => name.startsWith(prefix)).length < count && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 2));
  };
  writeFileSync(home + '/ready-' + process.pid, '');
  await waitFor('ready-', 2);
  try {
    const release = acquireLock(home, 'run');
    await waitFor('refused-', 1);
    release();
  } catch (error) {
    writeFileSync(home + '/refused-' + process.pid, '');
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
