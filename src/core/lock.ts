import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RememError } from './errors.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One holder at a time of a named lock under the home folder (`remem run`): a second caller is told who
 * holds it and gives up. A lock left by a process that died is taken over.
 */
export function acquireLock(home: string, name: string): () => void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, `${name}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
        throw new RememError('busy', `another remem ${name} is running (pid ${holder}); this one stops here`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new RememError('busy', `could not take the ${name} lock in ${home}`);
}
