import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { remem, repoRoot } from '../helpers/remem.ts';

const made: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'remem-layer-review-'));
  made.push(dir);
  return dir;
};
const NOW = '2026-03-02T00:00:00.000Z';
const LESSON = 'The staging database is reset every night at 02:00 UTC.';

function prime(home: string): string {
  return remem(['prime'], {
    home,
    now: NOW,
    env: { REMEM_HOLDOUT: '0' },
    input: JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: 'layer-review',
      cwd: home,
      prompt: 'is the staging database reset every night at 02:00 UTC?',
    }),
  }).stdout;
}

function layerFile(home: string): string {
  const file = join(home, 'common.jsonl');
  writeFileSync(
    file,
    `${JSON.stringify({ kind: 'surprise', text: LESSON, strength: 1, seen: 2, updated: '2026-03-01T00:00:00.000Z' })}\n`,
  );
  return file;
}

describe('MUST NOT: a file added as a layer steers agents before the person has read it', () => {
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('remem layer add holds what it adds for review, and --trust from a script is not the person', () => {
    const home = tempDir();
    const file = layerFile(home);
    const added = remem(['layer', 'add', file, '--as', 'common', '--trust'], { home, now: NOW });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('1 wait for your review');
    expect(added.stdout).toContain('--trust is taken only at a terminal');
    expect(added.stdout).toContain(LESSON);
    expect(prime(home)).not.toContain('02:00');
    expect(
      remem(['render', '--format', 'prompt', '--project', home], { home, now: NOW }).stdout,
    ).not.toContain('02:00');
    const approved = remem(['layer', 'approve', file], { home, now: NOW });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Approved 1 lessons');
    expect(prime(home)).toContain('02:00');
  });

  it('--trust at a terminal shows the lessons at once', () => {
    const home = tempDir();
    const file = layerFile(home);
    const command = [
      process.execPath,
      join(repoRoot, 'bin', 'remem.js'),
      'layer',
      'add',
      file,
      '--as',
      'common',
      '--trust',
    ]
      .map((part) => `'${part}'`)
      .join(' ');
    // `script` runs the command on a pseudo-terminal, as a person at a terminal would.
    const output = execFileSync('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env['PATH'] ?? '', HOME: join(home, 'user'), REMEM_HOME: home, REMEM_NOW: NOW },
      encoding: 'utf8',
    });
    expect(output).toContain('lessons agents now see');
    expect(prime(home)).toContain('02:00');
  });
});
