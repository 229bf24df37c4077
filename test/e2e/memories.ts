import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { remem, repoRoot } from '../helpers/remem.ts';

export interface LessonRow {
  id: number;
  hash: string;
  kind: string;
  text: string;
  strength: number;
  origin: string;
  review: string;
  state: string;
  confirmedBy: string[];
  corroboratedBy: string[];
}

export interface ReceiveJson {
  received: number;
  confirmations: number;
  revocations: number;
  dropped: number;
  known: number;
  raised: { lessonId: number; origin: string; way: string }[];
  refused: number;
  byReason: Record<string, number>;
}

export interface ShareJson {
  origin: string;
  lessons: number;
  confirmations: number;
  revocations: number;
  notEnabled: number;
  written: string[];
}

export function day(n: number, hour = 10): string {
  return new Date(Date.UTC(2026, 10, 1 + n, hour)).toISOString();
}

export function lintError(cwd: string, session: string, at: string): string {
  return JSON.stringify({
    agent: 'claude-code',
    cwd,
    kind: 'error',
    title: 'Bash: npm run lint',
    happened: 'npm ERR! Missing script: "lint"',
    session,
    at,
  });
}

/** A memory in its own home, whose sessions run in its own project. */
export function memory(root: string, name: string) {
  const home = join(root, name);
  const project = join(root, `project-${name}`);
  mkdirSync(project, { recursive: true });
  const run = (args: string[], now: string, cwd?: string) => {
    const result = remem(args, { home, now, ...(cwd === undefined ? {} : { cwd }) });
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  return {
    home,
    project,
    run,
    /** Ingests the day's events, then sleeps the next night at 04:00. */
    night(n: number, events: string[] = []) {
      if (events.length) {
        const file = join(home, `events-${n}.jsonl`);
        mkdirSync(home, { recursive: true });
        writeFileSync(file, `${events.join('\n')}\n`);
        run(['ingest', '--events', file], day(n, 23));
      }
      run(['sleep'], day(n + 1, 4));
    },
    /** Every lesson, or (`all` false) only those an agent may see. */
    lessons(now: string, all = true): LessonRow[] {
      return run(['lessons', ...(all ? ['--all'] : []), '--json'], now).json<{ lessons: LessonRow[] }>()
        .lessons;
    },
    share(now: string, folder: string): ShareJson {
      return run(['share', '--folder', folder, '--json'], now).json<ShareJson>();
    },
    receive(now: string, folder: string): ReceiveJson {
      return run(['receive', '--folder', folder, '--json'], now).json<ReceiveJson>();
    },
    origin(): string {
      return run(['key', '--json'], day(0)).json<{ origin: string }>().origin;
    },
  };
}

/** `remem commons serve` on a free port, its clock pinned at `now`; resolves once it listens. */
export async function serveCommons(home: string, now: string): Promise<{ url: string; stop: () => void }> {
  const server = spawn(
    process.execPath,
    [join(repoRoot, 'bin', 'remem.js'), 'commons', 'serve', '--port', '0'],
    {
      env: { PATH: process.env['PATH'] ?? '', REMEM_HOME: home, REMEM_NOW: now },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    server.on('exit', (code) => reject(new Error(`the commons exited (${code}): ${seen}`)));
  });
  return { url, stop: () => server.kill() };
}
