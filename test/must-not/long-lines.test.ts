import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const TIME = '/usr/bin/time';
const MB = 1024 * 1024;
const fixture = join(
  repoRoot,
  'test/fixtures/claude/projects/-home-dev-shop/b7e2d4f0-1a3c-4e5b-8f6a-2d9c0e1b3a47.jsonl',
);

/** A user line of `bytes` bytes: one message as long as a pasted log or an inlined file can make it. */
function hugeLine(bytes: number): Buffer {
  const head = Buffer.from('{"type":"user","message":{"role":"user","content":"');
  const tail = Buffer.from('"}}');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length - tail.length, 'a'), tail]);
}

/** Runs `remem ingest` under /usr/bin/time -v: its answer, and the child's peak resident memory in MB. */
function ingestMeasured(home: string, claude: string): { stdout: string; peakMb: number } {
  const run = spawnSync(
    TIME,
    ['-v', process.execPath, join(repoRoot, 'bin', 'remem.js'), 'ingest', '--claude', claude],
    {
      env: { PATH: process.env['PATH'] ?? '', HOME: join(home, 'user'), REMEM_HOME: home },
      encoding: 'utf8',
    },
  );
  expect(run.status, run.stderr).toBe(0);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1]);
  return { stdout: run.stdout, peakMb: kb / 1024 };
}

describe('MUST NOT: one long transcript line takes the memory of the machine', () => {
  it.skipIf(!existsSync(TIME))(
    'a 63 MB line, complete or still open, is skipped with a warning naming file, line and size; peak under 300 MB',
    () => {
      const home = tempDir();
      const claude = join(home, 'claude');
      const folder = join(claude, 'projects', '-home-dev-shop');
      mkdirSync(folder, { recursive: true });
      const lines = readFileSync(fixture, 'utf8').split('\n').filter(Boolean);
      const path = join(folder, 'b7e2d4f0-1a3c-4e5b-8f6a-2d9c0e1b3a47.jsonl');
      const fd = openSync(path, 'w');
      writeSync(fd, `${lines[0]}\n`);
      writeSync(fd, hugeLine(63 * MB));
      writeSync(fd, '\n');
      for (const line of lines.slice(1)) writeSync(fd, `${line}\n`);
      writeSync(fd, hugeLine(63 * MB).subarray(0, 63 * MB - 10));
      closeSync(fd);

      const { stdout, peakMb } = ingestMeasured(home, claude);
      expect(peakMb, `peak resident memory ${peakMb.toFixed(0)} MB`).toBeLessThan(300);
      expect(stdout).toContain(`${path}:2: line of ${63 * MB} bytes skipped`);
      expect(stdout).toContain(
        `${path}:${lines.length + 2}: line of ${63 * MB - 10} bytes, still open, not read`,
      );

      // The good lines beside them are read as they are alone.
      const alone = tempDir();
      const plain = join(alone, 'claude', 'projects', '-home-dev-shop');
      mkdirSync(plain, { recursive: true });
      writeFileSync(join(plain, 'b7e2d4f0-1a3c-4e5b-8f6a-2d9c0e1b3a47.jsonl'), `${lines.join('\n')}\n`);
      expect(remem(['ingest', '--claude', join(alone, 'claude')], { home: alone }).code).toBe(0);
      const titles = (at: string) =>
        remem(['episodes', '--json'], { home: at })
          .json<{ episodes: { kind: string; title: string }[] }>()
          .episodes.map((episode) => `${episode.kind} ${episode.title}`)
          .sort();
      expect(titles(home).length).toBeGreaterThan(0);
      expect(titles(home)).toEqual(titles(alone));
    },
    120_000,
  );
});
