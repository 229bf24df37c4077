import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { claudeSession } from './sessions.ts';

const tempDir = useTempDirs();

describe("a person's first hour: the holdout said, npm start, setup that says what failed", () => {
  it('remem doctor and the morning report say the share, the sessions held out and shown, and the comparison so far', () => {
    const home = tempDir();
    const event = JSON.stringify({
      kind: 'correction',
      said: 'no, this project uses uv, not pip',
      agent_did: "I'll install it with pip install requests.",
      session: 's0',
      cwd: '/tmp/remem-holdout-project',
      at: '2026-11-01T10:00:00.000Z',
    });
    expect(
      remem(['ingest', '--events', '-'], { home, input: `${event}\n`, now: '2026-11-01T23:00:00.000Z' }).code,
    ).toBe(0);
    expect(remem(['sleep'], { home, now: '2026-11-02T04:00:00.000Z' }).code).toBe(0);
    // Sixteen sessions ask about the same thing; the default holdout keeps the lesson from some of them.
    for (let n = 0; n < 16; n++) {
      const primed = remem(['prime'], {
        home,
        now: '2026-11-02T09:00:00.000Z',
        input: JSON.stringify({
          hook_event_name: 'UserPromptSubmit',
          session_id: `holdout-${n}`,
          transcript_path: '/dev/null',
          cwd: '/tmp/remem-holdout-project',
          prompt: 'install requests with pip install',
        }),
      });
      expect(primed.code).toBe(0);
    }
    // The nightly job moves the hooks' logs into the audit, then sleeps.
    expect(remem(['run'], { home, now: '2026-11-03T04:00:00.000Z' }).code).toBe(0);
    const doctor = remem(['doctor', '--json'], { home, now: '2026-11-03T05:00:00.000Z' });
    expect(doctor.code, doctor.stderr).toBe(0);
    const { holdout } = doctor.json<{
      holdout: { share: number; sessionsHeld: number; sessionsShown: number };
    }>();
    expect(holdout.share).toBe(0.5);
    expect(holdout.sessionsHeld).toBeGreaterThan(0);
    expect(holdout.sessionsShown).toBeGreaterThan(0);
    expect(holdout.sessionsHeld + holdout.sessionsShown).toBe(16);
    const text = remem(['doctor'], { home, now: '2026-11-03T05:00:00.000Z' }).stdout;
    expect(text).toContain('Holdout: 50% of sessions get no lessons');
    expect(text).toContain(
      `So far ${holdout.sessionsHeld} sessions held out, ${holdout.sessionsShown} shown lessons.`,
    );
    expect(text).toMatch(/A primed lesson met again in its session: shown .*, held out /);
    const morning = readFileSync(join(home, 'morning.md'), 'utf8');
    expect(morning).toContain(
      `so far ${holdout.sessionsHeld} sessions held out, ${holdout.sessionsShown} shown`,
    );
    // The nightly job's report also says what the comparison shows so far.
    expect(morning).toMatch(/A primed lesson met again in its session: shown .*, held out /);
  });

  it('npm start on a fresh machine reads the bundled examples, reports, and says the holdout', () => {
    const home = tempDir();
    const started = remem(['run', '--or-examples'], { home });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('reading the bundled example sessions instead');
    expect(started.stdout).toContain('Holdout: 50% of sessions get no lessons');
    expect(started.stdout.trim().split('\n').at(-1)).toMatch(/^Next: .*remem setup/);
  });

  it('setup that cannot schedule the nightly job exits 1, says what took effect, and leaves no folder behind', () => {
    const home = tempDir();
    const user = join(home, 'user');
    mkdirSync(join(user, '.claude'), { recursive: true });
    // A machine with neither a user systemd nor cron: nothing on PATH to schedule with.
    const wired = remem(['setup'], { home, env: { PATH: join(home, 'no-tools') } });
    expect(wired.code).toBe(1);
    expect(wired.stdout).toContain('claude-code     wired');
    expect(wired.stdout).toContain('Not done: the nightly job is not scheduled');
    expect(existsSync(join(user, '.config', 'systemd'))).toBe(false);
    const removed = remem(['setup', '--remove'], { home, env: { PATH: join(home, 'no-tools') } });
    expect(removed.stdout).toContain('took remem out of');
    expect(existsSync(join(user, '.config'))).toBe(false);
  });

  it('the words a person reads are explained: remem lessons --help and a legend under the list', () => {
    const help = remem(['lessons', '--help'], { home: tempDir() }).stdout;
    for (const word of [
      'seen N',
      'strength',
      'active',
      'archived',
      'merged into',
      'pending_review',
      'predicting',
      'current',
      'superseded',
      'contradicted',
      'only surviving',
      'personal',
      'held: WHY',
    ])
      expect(help, word).toContain(word);
    const home = tempDir();
    const event = JSON.stringify({
      kind: 'correction',
      said: 'no, this project uses uv, not pip',
      session: 's0',
      at: '2026-11-01T10:00:00.000Z',
    });
    expect(
      remem(['ingest', '--events', '-'], { home, input: `${event}\n`, now: '2026-11-01T23:00:00.000Z' }).code,
    ).toBe(0);
    expect(remem(['sleep'], { home, now: '2026-11-02T04:00:00.000Z' }).code).toBe(0);
    const listed = remem(['lessons'], { home, now: '2026-11-02T05:00:00.000Z' }).stdout;
    expect(listed).toMatch(/seen {2}1×/);
    expect(listed.trim().split('\n').at(-1)).toContain('remem lessons --help explains every word');
    const doctor = remem(['doctor'], { home, now: '2026-11-02T05:00:00.000Z' }).stdout;
    expect(doctor).toContain('Hooks: none logged since the last run');
  });

  it('setup --remove takes out every lesson file, block and folder Remem wrote for the agents, byte for byte', () => {
    const home = tempDir();
    const user = join(home, 'user');
    const claude = join(user, '.claude');
    const codex = join(user, '.codex');
    const project = '/tmp/remem-remove-project';
    const kept = join(claude, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    mkdirSync(kept, { recursive: true });
    mkdirSync(codex, { recursive: true });
    // The person's own files, one without a final newline.
    writeFileSync(join(kept, 'MEMORY.md'), '# My notes\n\n- the staging box is slow');
    writeFileSync(join(codex, 'AGENTS.md'), 'Be brief.\n\n');
    const before = {
      memory: readFileSync(join(kept, 'MEMORY.md')),
      agents: readFileSync(join(codex, 'AGENTS.md')),
    };
    claudeSession(claude, project, 'sess-r', '2026-11-01T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it with npm install dayjs now." },
      { user: 'no, use pnpm not npm: this repo is a pnpm workspace' },
    ]);
    claudeSession(claude, '/tmp/remem-remove-other', 'sess-o', '2026-11-01T11:00:00.000Z', [
      { user: 'run the tests' },
      { agent: 'Running them with npm test now.' },
      { user: 'no, always use pnpm here, never npm' },
    ]);
    const env = { PATH: join(home, 'no-tools') };
    // A rule of the person's own, for every project: what AGENTS.md carries.
    const personal = JSON.stringify({
      kind: 'correction',
      said: 'no, always answer in English',
      scope: 'personal',
      at: '2026-11-01T12:00:00.000Z',
    });
    expect(
      remem(['ingest', '--events', '-'], {
        home,
        env,
        input: `${personal}\n`,
        now: '2026-11-01T13:00:00.000Z',
      }).code,
    ).toBe(0);
    expect(remem(['setup', '--agent', 'claude-code', '--agent', 'codex'], { home, env }).code).toBe(0);
    const night = remem(['run'], { home, now: '2026-11-02T04:00:00.000Z', env });
    expect(night.code, night.stderr).toBe(0);
    expect(readFileSync(join(kept, 'MEMORY.md'), 'utf8')).toContain('remem:begin');
    const other = join(claude, 'projects', '-tmp-remem-remove-other', 'memory');
    expect(existsSync(other)).toBe(true);
    expect(readFileSync(join(codex, 'AGENTS.md'), 'utf8')).toContain('remem:begin');

    const removed = remem(['setup', '--remove', '--agent', 'claude-code', '--agent', 'codex'], { home, env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Took out what Remem wrote where agents read');
    expect(readFileSync(join(kept, 'MEMORY.md'))).toEqual(before.memory);
    expect(readFileSync(join(codex, 'AGENTS.md'))).toEqual(before.agents);
    expect(readdirSync(kept)).toEqual(['MEMORY.md']);
    // The folder Remem made for the other project is gone, with its MEMORY.md.
    expect(existsSync(other)).toBe(false);
  });

  it('before remem setup, a run over real sessions writes nothing outside REMEM_HOME and says how to wire', () => {
    const home = tempDir();
    const user = join(home, 'user');
    const project = '/tmp/remem-consent-project';
    const memory = join(user, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    mkdirSync(memory, { recursive: true });
    mkdirSync(join(user, '.codex'), { recursive: true });
    writeFileSync(join(memory, 'MEMORY.md'), '# My notes\n');
    writeFileSync(join(user, '.codex', 'AGENTS.md'), 'Be brief.\n');
    claudeSession(join(user, '.claude'), project, 'sess-c', '2026-11-01T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it with npm install dayjs now." },
      { user: 'no, use pnpm not npm: this repo is a pnpm workspace' },
    ]);
    const snapshot = () =>
      readdirSync(user, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const path = join(entry.parentPath, entry.name);
          return `${path}:${readFileSync(path, 'utf8')}`;
        })
        .sort();
    const before = snapshot();
    const started = remem(['run', '--or-examples'], { home, now: '2026-11-02T04:00:00.000Z' });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('Nothing was written where agents read: no agent is wired yet');
    expect(snapshot()).toEqual(before);
    // Wired, the same run writes Claude Code's memory folder.
    expect(remem(['setup', '--agent', 'claude-code'], { home }).code).toBe(0);
    expect(remem(['run'], { home, now: '2026-11-03T04:00:00.000Z' }).code).toBe(0);
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('remem:begin');
    expect(readFileSync(join(user, '.codex', 'AGENTS.md'), 'utf8')).toBe('Be brief.\n');
  });
});
