import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const binary = join(repoRoot, 'bin', 'remem.js');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = unknown>(): T;
}

export interface RunOptions {
  home: string;
  now?: string;
  input?: string | Buffer;
  env?: Record<string, string>;
  cwd?: string;
}

/** Runs the built `remem` binary, as a user would, in a temporary home. */
export function remem(args: string[], options: RunOptions): RunResult {
  const result = spawnSync(process.execPath, [binary, ...args], {
    cwd: options.cwd ?? repoRoot,
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: join(options.home, 'user'),
      REMEM_HOME: options.home,
      ...(options.now ? { REMEM_NOW: options.now } : {}),
      ...options.env,
    },
  });
  const stdout = result.stdout ?? '';
  return {
    code: result.status ?? -1,
    stdout,
    stderr: result.stderr ?? '',
    json<T>() {
      return JSON.parse(stdout) as T;
    },
  };
}
