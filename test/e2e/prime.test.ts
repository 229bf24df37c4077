import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeldOut } from '../../src/prime/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const PROJECT = '/tmp/remem-prime-project';

/** A Claude Code session in which the agent offers and the person corrects it, and one with a failing call. */
function transcripts(root: string): string {
  const folder = join(root, 'claude', 'projects', '-tmp-remem-prime-project');
  mkdirSync(folder, { recursive: true });
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({
      cwd: PROJECT,
      sessionId: 'sess-a',
      version: '2.1.0',
      isSidechain: false,
      userType: 'external',
      ...fields,
    });
  const lines = [
    line({
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2026-11-01T10:00:00.000Z',
      message: { role: 'user', content: 'add the index on orders.created_at' },
    }),
    line({
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: '2026-11-01T10:01:00.000Z',
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'x',
        content: [
          {
            type: 'text',
            text: 'The migration file is written and the tests pass. Want me to run the migration on staging now?',
          },
        ],
      },
    }),
    line({
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: '2026-11-01T10:02:00.000Z',
      message: { role: 'user', content: "don't ask me, just run it yourself" },
    }),
    line({
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'u2',
      timestamp: '2026-11-01T10:03:00.000Z',
      message: {
        id: 'm2',
        role: 'assistant',
        model: 'x',
        content: [
          {
            type: 'tool_use',
            id: 't1',
            name: 'Bash',
            input: { command: 'npm run migrate:staging', description: 'Run the staging migration' },
          },
        ],
      },
    }),
    line({
      type: 'user',
      uuid: 'u3',
      parentUuid: 'a2',
      timestamp: '2026-11-01T10:04:00.000Z',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            is_error: true,
            content: 'Exit code 1\nnpm ERR! Missing script: "migrate:staging"',
          },
        ],
      },
    }),
    line({
      type: 'assistant',
      uuid: 'a3',
      parentUuid: 'u3',
      timestamp: '2026-11-01T10:05:00.000Z',
      message: {
        id: 'm3',
        role: 'assistant',
        model: 'x',
        content: [
          {
            type: 'tool_use',
            id: 't2',
            name: 'Bash',
            input: {
              command: 'npm run migrate:staging -- --force',
              description: 'Run the staging migration',
            },
          },
        ],
      },
    }),
    line({
      type: 'user',
      uuid: 'u4',
      parentUuid: 'a3',
      timestamp: '2026-11-01T10:06:00.000Z',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't2',
            is_error: true,
            content: 'Exit code 1\nnpm ERR! Missing script: "migrate:staging"',
          },
        ],
      },
    }),
  ];
  writeFileSync(join(folder, 'sess-a.jsonl'), `${lines.join('\n')}\n`);
  return join(root, 'claude');
}

function learnedHome(): string {
  const home = tempDir();
  const claude = transcripts(tempDir('remem-prime-src-'));
  expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-01T23:00:00.000Z' }).code).toBe(0);
  const slept = remem(['run'], {
    home,
    now: '2026-11-02T04:00:00.000Z',
    env: { CLAUDE_CONFIG_DIR: join(home, 'none'), CODEX_HOME: join(home, 'none') },
  });
  expect(slept.code, slept.stderr).toBe(0);
  return home;
}

function hook(home: string, payload: Record<string, unknown>, env: Record<string, string> = {}) {
  return remem(['prime'], {
    home,
    now: '2026-11-02T09:00:00.000Z',
    input: JSON.stringify({ session_id: 'live-1', transcript_path: '/dev/null', cwd: PROJECT, ...payload }),
    env: { REMEM_HOLDOUT: '0', ...env },
  });
}

describe('remem prime, one command for every hook moment', () => {
  it('puts a lesson beside a prompt it meets, once per session', () => {
    const home = learnedHome();
    const prompt = {
      hook_event_name: 'UserPromptSubmit',
      prompt: "don't ask me, just run the migration yourself",
    };
    const first = hook(home, prompt);
    expect(first.code).toBe(0);
    const answer = JSON.parse(first.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(answer.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(answer.hookSpecificOutput.additionalContext).toContain("don't ask me, just run it yourself");
    expect(hook(home, prompt).stdout).toBe('');
  });

  it('does not put beside a Claude Code prompt what the session loaded when it began; a Codex prompt gets it', () => {
    const home = learnedHome();
    const claude = join(home, 'claude');
    const prompt = {
      hook_event_name: 'UserPromptSubmit',
      prompt: "don't ask me, just run the migration yourself",
    };
    // Claude Code's transcript lies under its folder, and the session loaded the memory folder render wrote.
    const loaded = hook(
      home,
      { ...prompt, session_id: 'claude-1', transcript_path: join(claude, 'projects', 'p', 'claude-1.jsonl') },
      { CLAUDE_CONFIG_DIR: claude },
    );
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toBe('');
    const elsewhere = hook(
      home,
      { ...prompt, session_id: 'codex-1', transcript_path: join(home, 'codex', 'rollout-1.jsonl') },
      { CLAUDE_CONFIG_DIR: claude },
    );
    expect(elsewhere.stdout).toContain("don't ask me, just run it yourself");
  });

  it('continues a turn that ends with an offer, once, not twice in a row nor twice a session', () => {
    const home = learnedHome();
    const stop = {
      hook_event_name: 'Stop',
      last_assistant_message: 'The fix is in. Want me to deploy it to staging now?',
    };
    const first = hook(home, { ...stop, stop_hook_active: false });
    const answer = JSON.parse(first.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain("don't ask me, just run it yourself");
    expect(answer.reason).toMatch(/only the person has/);
    expect(hook(home, { ...stop, stop_hook_active: true }).stdout).toBe('');
    // The reminder is in the agent's context for the rest of the session; another session gets it again.
    expect(hook(home, { ...stop, stop_hook_active: false }).stdout).toBe('');
    const next = hook(home, { ...stop, session_id: 'live-9', stop_hook_active: false });
    expect((JSON.parse(next.stdout) as { decision: string }).decision).toBe('block');
    // A finished report hands nothing back.
    expect(
      hook(home, {
        hook_event_name: 'Stop',
        stop_hook_active: false,
        last_assistant_message: 'Deployed to staging; all checks green.',
      }).stdout,
    ).toBe('');
  });

  it("reads an offer in the rule sets' other languages as their patterns say: the bundle holds them as escapes", () => {
    // One byte a character: V8 would hold a bundle with one character past Latin-1 at two.
    expect(readFileSync(join(repoRoot, 'dist', 'prime.cjs'), 'latin1')).toMatch(/^[\x00-\x7f]*$/);
    const home = learnedHome();
    const stop = hook(home, {
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: '修复已经完成了。要我帮你部署到测试环境吗？',
    });
    expect((JSON.parse(stop.stdout) as { decision: string }).decision).toBe('block');
  });

  it('says nothing at the end of a turn that waits for what only the person has, even when it reads like an offer', () => {
    const home = learnedHome();
    const stop = (message: string) =>
      hook(home, { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: message });
    // An offer right after a wait hinges on what the person must do first: the rules read a wait.
    for (const closing of [
      'I need the contents of the config file to go on. Please add config/deploy.yml to the chat, and let me know if you want me to apply the change then.',
      'I need the contents of the config file to go on. Please add config/deploy.yml to the chat. Let me know if you want me to apply the change then.',
    ]) {
      const waiting = stop(closing);
      expect(waiting.code).toBe(0);
      expect(waiting.stdout, closing).toBe('');
    }
    // The rules read this closing as an offer ("¿Desea …?"); the learned detector turns it away.
    const asked = stop(
      'Estos archivos son clave para mejorar el proyecto. ¿Desea continuar con alguna de estas tareas?',
    );
    expect(asked.code).toBe(0);
    expect(asked.stdout).toBe('');
    const offer = stop('The fix is in. Want me to deploy it to staging now?');
    expect((JSON.parse(offer.stdout) as { decision: string }).decision).toBe('block');
  });

  it('reminds on leave asked for the agent’s own next step, and not on an open question about what comes next', () => {
    const stop = (message: string, session: string) =>
      hook(learnedHome(), {
        hook_event_name: 'Stop',
        stop_hook_active: false,
        session_id: session,
        last_assistant_message: message,
      });
    for (const [i, message] of [
      'The migration is written and the tests pass. Should we run it on staging now?',
      'The plan is saved to tfplan. Ready to proceed with the apply?',
      'Both files are updated. Would it help if I added a retry around the upload?',
      'Die Migration ist geschrieben. Soll ich sie jetzt auf Staging ausführen?',
      'Semua tes lulus. Mau saya jalankan migrasinya di staging sekarang?',
      '마이그레이션을 작성했습니다. 지금 스테이징에서 실행할까요?',
    ].entries()) {
      const said = stop(message, `ask-${i}`);
      expect((JSON.parse(said.stdout) as { decision: string }).decision, message).toBe('block');
    }
    expect(stop('Everything is committed. What would you like to work on today?', 'open').stdout).toBe('');
  });

  it('says nothing at the end of the turn when the person said only they have what is needed', () => {
    const home = learnedHome();
    hook(home, {
      session_id: 'live-2',
      hook_event_name: 'UserPromptSubmit',
      prompt: "wait until I've told the team, I'll give you the production password then",
    });
    const stop = hook(home, {
      session_id: 'live-2',
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'Ready. Want me to deploy it now?',
    });
    expect(stop.stdout).toBe('');
  });

  it('puts an error lesson beside a tool call like the one that failed, never blocking it', () => {
    const home = learnedHome();
    const result = hook(home, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm run migrate:staging', description: 'Run the staging migration' },
    });
    const answer = JSON.parse(result.stdout) as {
      hookSpecificOutput: { additionalContext: string; permissionDecision?: string };
    };
    expect(answer.hookSpecificOutput.additionalContext).toContain('Missing script');
    expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();
  });

  it('works out and logs a held-out prime without showing it', () => {
    const home = learnedHome();
    const held = hook(
      home,
      { hook_event_name: 'UserPromptSubmit', prompt: "don't ask me, just run the migration yourself" },
      { REMEM_HOLDOUT: '1' },
    );
    expect(held.stdout).toBe('');
    const run = remem(['run', '--json'], {
      home,
      now: '2026-11-03T04:00:00.000Z',
      env: { CLAUDE_CONFIG_DIR: join(home, 'none'), CODEX_HOME: join(home, 'none') },
    });
    expect(run.json<{ hooks: { injections: number } }>().hooks.injections).toBe(1);
  });

  it('fails open: past its deadline, on garbage, with a broken store', () => {
    const home = learnedHome();
    const late = hook(
      home,
      { hook_event_name: 'UserPromptSubmit', prompt: 'anything' },
      { REMEM_HOOK_DEADLINE_MS: '1' },
    );
    expect(late.code).toBe(0);
    expect(late.stdout).toBe('');
    const garbage = remem(['prime'], { home, input: '\u0000not json' });
    expect(garbage.code).toBe(0);
    expect(garbage.stdout).toBe('');
    const broken = tempDir();
    writeFileSync(join(broken, 'remem.db'), 'this is not a database');
    const answer = hook(broken, { hook_event_name: 'UserPromptSubmit', prompt: 'anything' });
    expect(answer.code).toBe(0);
    expect(answer.stdout).toBe('');
  });

  it('reads the configuration file, and runs without HOME', () => {
    const home = learnedHome();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ holdout: 0 }));
    const result = spawnSync(process.execPath, [join(repoRoot, 'bin', 'remem.js'), 'prime'], {
      input: JSON.stringify({
        session_id: 'configured',
        cwd: PROJECT,
        hook_event_name: 'UserPromptSubmit',
        prompt: "don't ask me, just run the migration yourself",
      }),
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', REMEM_HOME: home },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("don't ask me, just run it yourself");
  });

  it('answers the same from the code cache, without one, and with a broken or stale one', () => {
    const home = learnedHome();
    // A copy of the launcher and the bundle: the cache it writes is its own, not the build's.
    const copy = tempDir('remem-prime-cache-');
    cpSync(join(repoRoot, 'bin'), join(copy, 'bin'), { recursive: true });
    mkdirSync(join(copy, 'dist'));
    // The build's cache is the one for this runtime: the test runs the hook with the same Node and no flags.
    const [cacheName, ...others] = readdirSync(join(repoRoot, 'dist')).filter((name) =>
      /^prime\.cjs\.[0-9a-f]{8}\.cache$/.test(name),
    );
    expect(others).toEqual([]);
    for (const file of ['prime.cjs', cacheName!, 'prime-import.cjs'])
      cpSync(join(repoRoot, 'dist', file), join(copy, 'dist', file));
    const cacheFile = join(copy, 'dist', cacheName!);
    const built = readFileSync(cacheFile);
    const id = /\/\/# build ([0-9a-f]{16})\n$/.exec(
      readFileSync(join(copy, 'dist', 'prime.cjs'), 'utf8'),
    )?.[1];
    expect(id).toBeDefined();
    expect(built.toString('latin1', 0, 16)).toBe(id);
    let session = 0;
    const prime = (flags: string[] = []) => {
      const result = spawnSync(process.execPath, [...flags, join(copy, 'bin', 'remem.js'), 'prime'], {
        input: JSON.stringify({
          session_id: `cache-${session++}`,
          cwd: PROJECT,
          hook_event_name: 'UserPromptSubmit',
          prompt: "don't ask me, just run the migration yourself",
        }),
        encoding: 'utf8',
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: join(home, 'user'),
          REMEM_HOME: home,
          REMEM_HOLDOUT: '0',
        },
      });
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
      return result.stdout;
    };
    // A cache V8 takes is left as it is (a cache written again is a new file).
    const taken = statSync(cacheFile).ino;
    const answer = prime();
    expect(answer).toContain("don't ask me, just run it yourself");
    expect(statSync(cacheFile).ino).toBe(taken);
    const broken = Buffer.concat([built.subarray(0, 16), Buffer.from('not a code cache at all')]);
    const stale = Buffer.concat([Buffer.from('0123456789abcdef'), built.subarray(16)]);
    // One bit changed deep in the code: V8 would take it, and might crash or run the wrong code.
    const damaged = Buffer.from(built);
    damaged[damaged.length - 1000]! ^= 0x10;
    for (const cache of [broken, stale, damaged, null]) {
      if (cache) writeFileSync(cacheFile, cache);
      else rmSync(cacheFile);
      expect(prime()).toBe(answer);
      // Written again for the next hook, for this bundle, and taken by it.
      const written = statSync(cacheFile).ino;
      expect(readFileSync(cacheFile).toString('latin1', 0, 16)).toBe(id);
      expect(prime()).toBe(answer);
      expect(statSync(cacheFile).ino).toBe(written);
    }
    // Other V8 flags: a cache of their own, the first one left as it is.
    const ours = statSync(cacheFile).ino;
    expect(prime(['--max-semi-space-size=2'])).toBe(answer);
    expect(prime(['--max-semi-space-size=2'])).toBe(answer);
    expect(readdirSync(join(copy, 'dist')).filter((name) => name.endsWith('.cache'))).toHaveLength(2);
    expect(prime()).toBe(answer);
    expect(statSync(cacheFile).ino).toBe(ours);
    // Without WebAssembly the index's estimate runs in JavaScript, and answers the same.
    expect(prime(['--no-expose-wasm'])).toBe(answer);
  });

  it('holds out close to half of sessions', () => {
    let held = 0;
    for (let i = 0; i < 10_000; i++) if (isHeldOut(`session-${i}`, 0.5)) held++;
    expect(held).toBeGreaterThan(4_850);
    expect(held).toBeLessThan(5_150);
  });
});

describe('remem render', () => {
  it('writes one file per lesson and a managed MEMORY.md section; a deleted file is a veto', () => {
    const home = learnedHome();
    const dir = join(home, 'memory');
    mkdirSync(dir);
    writeFileSync(join(dir, 'MEMORY.md'), '# My notes\n- [Build](build.md): how I build\n');
    expect(remem(['render', '--dir', dir], { home, now: '2026-11-02T05:00:00.000Z' }).code).toBe(0);
    const files = readdirSync(dir).filter((name) => name.startsWith('remem-'));
    expect(files.length).toBeGreaterThan(0);
    rmSync(join(dir, files[0]!));
    expect(remem(['render', '--dir', dir], { home, now: '2026-11-02T06:00:00.000Z' }).code).toBe(0);
    const lessons = remem(['lessons', '--all', '--json'], { home }).json<{ lessons: { state: string }[] }>()
      .lessons;
    expect(lessons.filter((lesson) => lesson.state === 'vetoed')).toHaveLength(1);
    expect(readdirSync(dir)).not.toContain(files[0]);
    // A whole folder removed is a target gone, not every lesson in it refused.
    rmSync(dir, { recursive: true });
    expect(
      remem(['render', '--dir', join(home, 'other')], { home, now: '2026-11-02T07:00:00.000Z' }).code,
    ).toBe(0);
    const after = remem(['lessons', '--all', '--json'], { home }).json<{ lessons: { state: string }[] }>()
      .lessons;
    expect(after.filter((lesson) => lesson.state === 'vetoed')).toHaveLength(1);
  });

  it('prints the memory as a prompt block and as tools in three schemas', () => {
    const home = learnedHome();
    const prompt = remem(['render', '--format', 'prompt', '--project', PROJECT], { home });
    expect(prompt.stdout).toMatch(/not instructions/);
    for (const format of ['openai-tools', 'anthropic-tools', 'gemini-tools']) {
      const tools = remem(['render', '--format', format, '--json', '--project', PROJECT], { home });
      expect(tools.code, tools.stderr).toBe(0);
      expect(JSON.stringify(tools.json())).toContain('remem_recall');
    }
  });
});
