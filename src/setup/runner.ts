import { spawnSync } from 'node:child_process';
import type { CommandRunner, RunResult } from './types.ts';

/** Runs real programs (crontab, systemctl, launchctl); one that cannot start answers code 127. */
export function createProcessRunner(): CommandRunner {
  return {
    run(cmd: string, args: string[], input?: string): RunResult {
      const ran = spawnSync(cmd, args, {
        encoding: 'utf8',
        timeout: 30_000,
        ...(input === undefined ? {} : { input }),
      });
      if (ran.error) return { code: 127, stdout: '', stderr: ran.error.message };
      return { code: ran.status ?? 1, stdout: ran.stdout ?? '', stderr: ran.stderr ?? '' };
    },
  };
}
