import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { repoRoot } from '../helpers/remem.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/**
 * Starts the built `remem` with a listening verb (`proxy`, `serve`, `ui`, `commons serve`) on a free port and
 * gives the port it printed. Stopped after the test.
 */
export async function startListener(home: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'remem.js'), ...args, '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: join(home, 'user'), REMEM_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise<number>((resolve, reject) => {
    let said = '';
    // `remem ui` prints its address on stdout, the others on stderr.
    const hear = (chunk: Buffer) => {
      said += chunk.toString();
      const port = /http:\/\/[^\s/]+:(\d+)/.exec(said)?.[1];
      if (port) resolve(Number(port));
    };
    child.stdout?.on('data', hear);
    child.stderr?.on('data', hear);
    child.on('exit', (code) => reject(new Error(`remem ${args.join(' ')} exited ${code}: ${said}`)));
  });
}

export interface Answer {
  status: number;
  body: string;
}

/**
 * One request as any client on this machine can send it, a browser's included: every header as given,
 * `Host` and `Origin` too (fetch would not let a page set them; a page's browser sets them for it).
 */
export function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** What a web page on another site sends with a form or `fetch(..., {mode: 'no-cors'})`: no preflight asked. */
export const crossSite = {
  host: 'evil.com',
  origin: 'https://evil.com',
  'content-type': 'text/plain;charset=UTF-8',
};

/** JSON nested `depth` levels deep inside an event's field. */
export function nestedEvent(depth: number): string {
  return `{"kind":"note","text":"x","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}
