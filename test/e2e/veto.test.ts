import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { claudeSession } from './sessions.ts';

const tempDir = useTempDirs();
const PROJECT = '/tmp/remem-veto-project';
const SAID = 'no, use pnpm not npm: this repo is a pnpm workspace';

describe('a veto is a veto at once', () => {
  it('remem forget removes the lesson from the memory folder, MEMORY.md and prime before any other run, and says where', () => {
    const home = tempDir();
    const claude = join(tempDir(), 'claude');
    claudeSession(claude, PROJECT, 'sess-v', '2026-11-01T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it with npm install dayjs now." },
      { user: SAID },
    ]);
    const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(home, 'none'), REMEM_HOLDOUT: '0' };
    // The person wired Claude Code: Remem may write into its memory folders.
    expect(remem(['setup', '--agent', 'claude-code'], { home, env }).code).toBe(0);
    const night = remem(['run'], { home, now: '2026-11-02T04:00:00.000Z', env });
    expect(night.code, night.stderr).toBe(0);
    const folder = join(claude, 'projects', PROJECT.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    const files = () => readdirSync(folder).filter((name) => name.startsWith('remem-'));
    expect(files()).toHaveLength(1);
    expect(readFileSync(join(folder, 'MEMORY.md'), 'utf8')).toContain('pnpm workspace');
    const lesson = remem(['lessons', '--json'], { home, env }).json<{ lessons: { id: number }[] }>()
      .lessons[0]!;

    const vetoed = remem(['forget', String(lesson.id)], { home, now: '2026-11-02T09:00:00.000Z', env });
    expect(vetoed.code, vetoed.stderr).toBe(0);
    expect(vetoed.stdout).toContain(`Vetoed #${lesson.id}`);
    expect(vetoed.stdout).toContain('Removed now from:');
    expect(vetoed.stdout).toContain(folder);
    expect(files()).toEqual([]);
    expect(
      existsSync(join(folder, 'MEMORY.md')) ? readFileSync(join(folder, 'MEMORY.md'), 'utf8') : '',
    ).not.toContain('pnpm workspace');
    const primed = remem(['prime'], {
      home,
      now: '2026-11-02T09:05:00.000Z',
      env,
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 'after-veto',
        transcript_path: '/dev/null',
        cwd: PROJECT,
        tool_name: 'Bash',
        tool_input: { command: 'npm install zod', description: 'Install zod' },
      }),
    });
    expect(primed.stdout).not.toContain('pnpm');
  });
});
