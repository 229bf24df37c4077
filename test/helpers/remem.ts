import { spawn, spawnSync } from 'node:child_process';
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

/** A run's environment: nothing of this shell's but PATH, and a home of its own. */
function environment(options: RunOptions): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: join(options.home, 'user'),
    REMEM_HOME: options.home,
    ...(options.now ? { REMEM_NOW: options.now } : {}),
    ...options.env,
  };
}

/** Runs the built `remem` binary, as a user would, in a temporary home. */
export function remem(args: string[], options: RunOptions): RunResult {
  const result = spawnSync(process.execPath, [binary, ...args], {
    cwd: options.cwd ?? repoRoot,
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: environment(options),
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

/** `remem` without blocking this process: for a run that talks to a server the test itself holds open. */
export function rememAsync(args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binary, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: environment(options),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        json<T>() {
          return JSON.parse(stdout) as T;
        },
      }),
    );
    child.stdin.end(options.input ?? '');
  });
}
