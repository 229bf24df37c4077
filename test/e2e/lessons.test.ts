import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remem } from '../helpers/remem.ts';
import { claudeSession } from './sessions.ts';

const made: string[] = [];
const tempDir = (prefix = 'remem-test-') => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
const PROJECT = '/tmp/remem-lessons-project';
// Detected by today's correction cue ("no, …" opening); "use pnpm not npm" alone is not a correction to it.
const PNPM =
  'no, use pnpm not npm: this repo is a pnpm workspace and npm install breaks its lockfile every time';
const CAC_FAILURE = [
  'Exit code 1',
  'file:///tmp/remem-lessons-project/node_modules/cac/dist/index.mjs:404',
  // The source line Node prints above the message, as it prints it.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the line is source code, placeholders and all
  '          throw new CACError(`Unknown option \\`${name.length > 1 ? `--${name}` : `-${name}`}\\``);',
  '                ^',
  '',
  'CACError: Unknown option `--grep`',
  '    at Command.checkUnknownOptions (file:///tmp/remem-lessons-project/node_modules/cac/dist/index.mjs:404:17)',
  '',
  'Node.js v20.20.2',
].join('\n');

/** One session: a pnpm correction, a refused install with its reason in the next words, a failing test run. */
function learnedHome(): { home: string; claude: string } {
  const home = tempDir();
  const claude = join(tempDir('remem-lessons-src-'), 'claude');
  claudeSession(claude, PROJECT, 'sess-l', '2026-11-01T10:00:00.000Z', [
    { user: 'add lodash to the project' },
    { agent: "I'll add it with npm install lodash now." },
    { user: PNPM },
    { agent: 'Understood. I will also add zod for the validation.' },
    { call: { id: 't1', name: 'Bash', input: { command: 'pnpm add zod', description: 'Install zod' } } },
    { refused: 't1' },
    { interrupted: true },
    { user: 'we use valibot here, not zod' },
    { agent: 'Running the matching tests.' },
    {
      call: {
        id: 't2',
        name: 'Bash',
        input: { command: 'npx vitest --grep export', description: 'Run the export tests' },
      },
    },
    { failed: 't2', text: CAC_FAILURE },
    // An error becomes a lesson when it repeats.
    {
      call: {
        id: 't3',
        name: 'Bash',
        input: { command: 'npx vitest --grep export', description: 'Run the export tests again' },
      },
    },
    { failed: 't3', text: CAC_FAILURE },
    { agent: 'vitest has no --grep option; I used -t instead and the tests pass.' },
  ]);
  expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-01T23:00:00.000Z' }).code).toBe(0);
  wire(home, claude);
  const slept = remem(['run'], {
    home,
    now: '2026-11-02T04:00:00.000Z',
    env: { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(home, 'none') },
  });
  expect(slept.code, slept.stderr).toBe(0);
  return { home, claude };
}

/** The person wires Claude Code (`remem setup`): the consent for Remem to write into its memory folders. */
function wire(home: string, claude: string): void {
  const wired = remem(['setup', '--agent', 'claude-code'], { home, env: { CLAUDE_CONFIG_DIR: claude } });
  expect(wired.code, wired.stderr).toBe(0);
}

function hook(home: string, session: string, payload: Record<string, unknown>) {
  const result = remem(['prime'], {
    home,
    now: '2026-11-02T09:00:00.000Z',
    input: JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd: PROJECT, ...payload }),
    env: { REMEM_HOLDOUT: '0' },
  });
  expect(result.code).toBe(0);
  return result.stdout
    ? (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
        .additionalContext
    : '';
}

function lessonTexts(home: string): string[] {
  return readFileSync(join(home, 'lessons.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text);
}

describe('lessons worth showing, shown when they apply', () => {
  let learned: { home: string; claude: string };
  beforeAll(() => {
    learned = learnedHome();
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('an error lesson quotes the line that names the error and what was run', () => {
    const error = lessonTexts(learned.home).find((text) => text.includes('CACError'));
    expect(error).toContain('"CACError: Unknown option `--grep`"');
    expect(error).toContain('npx vitest --grep export');
    expect(error).not.toContain('throw new');
  });

  it("a refused call carries what was refused and the person's reason from their next words", () => {
    const refusal = lessonTexts(learned.home).find((text) => text.includes('refused'));
    expect(refusal).toContain('"pnpm add zod"');
    expect(refusal).toContain('we use valibot here, not zod');
  });

  it("the MEMORY.md index line keeps the person's words", () => {
    const folder = join(learned.claude, 'projects', PROJECT.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    const index = readFileSync(join(folder, 'MEMORY.md'), 'utf8');
    const line = index.split('\n').find((text) => text.includes('pnpm workspace'));
    expect(line).toContain(PNPM);
  });

  it('a correction about a command reaches a call that runs it, and a prompt about what it does', () => {
    const tool = hook(learned.home, 'live-tool', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm install dayjs', description: 'Install dayjs' },
    });
    expect(tool).toContain('use pnpm not npm');
    const prompt = hook(learned.home, 'live-prompt', {
      hook_event_name: 'UserPromptSubmit',
      prompt: 'add dayjs to the dependencies',
    });
    expect(prompt).toContain('use pnpm not npm');
    // A call that names nothing the rule is about gets nothing of it.
    const other = hook(learned.home, 'live-other', {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls -la src', description: 'List the sources' },
    });
    expect(other).not.toContain('pnpm');
  });

  it('corrections naming the same commands merge into one theme that counts each; another tool stays apart', () => {
    const home = tempDir();
    const claude = join(tempDir('remem-lessons-src-'), 'claude');
    claudeSession(claude, PROJECT, 'sess-m1', '2026-11-03T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it with npm install dayjs now." },
      { user: 'no, use pnpm not npm' },
      { agent: 'Running the script with python now.' },
      { user: 'no, use uv run, not python' },
    ]);
    claudeSession(claude, PROJECT, 'sess-m2', '2026-11-04T10:00:00.000Z', [
      { user: 'add zod' },
      { agent: 'Installing it with npm install zod.' },
      { user: 'no, pnpm, not npm!! how many times' },
    ]);
    expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-04T23:00:00.000Z' }).code).toBe(0);
    const slept = remem(['run'], {
      home,
      now: '2026-11-05T04:00:00.000Z',
      env: { CLAUDE_CONFIG_DIR: join(home, 'none'), CODEX_HOME: join(home, 'none') },
    });
    expect(slept.code, slept.stderr).toBe(0);
    const texts = lessonTexts(home);
    const pnpm = texts.filter((text) => text.includes('pnpm'));
    expect(pnpm).toHaveLength(1);
    expect(pnpm[0]).toContain('2 times');
    expect(pnpm[0]).toContain('no, use pnpm not npm');
    expect(pnpm[0]).toContain('no, pnpm, not npm!! how many times');
    expect(texts.filter((text) => text.includes('uv run, not python'))).toHaveLength(1);
    expect(texts.find((text) => text.includes('uv run'))).not.toContain('pnpm');
    // Session start loads the standing rules whatever its budget (one lesson here), the most often said first: the
    // pnpm theme, then the rule of the house about uv.
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ params: { render: { sessionStartLessons: 1 } } }),
    );
    mkdirSync(join(claude, 'projects', PROJECT.replace(/[^A-Za-z0-9]/g, '-')), { recursive: true });
    wire(home, claude);
    const rendered = remem(['render'], {
      home,
      now: '2026-11-05T05:00:00.000Z',
      env: { CLAUDE_CONFIG_DIR: claude },
    });
    expect(rendered.code, rendered.stderr).toBe(0);
    const index = readFileSync(
      join(claude, 'projects', PROJECT.replace(/[^A-Za-z0-9]/g, '-'), 'memory', 'MEMORY.md'),
      'utf8',
    );
    const listed = index.split('\n').filter((line) => line.startsWith('- ['));
    expect(listed).toHaveLength(2);
    expect(listed[0]).toContain('The person said 2 times');
    expect(listed[1]).toContain('uv run, not python');
  });
});

describe("session start sized by the project's latest session", () => {
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('after a session without a correction the block holds only the rules of the house, and the prompt hook still finds the rest; a session with one brings it back', () => {
    const home = tempDir();
    const claude = join(tempDir('remem-lessons-src-'), 'claude');
    const folder = join(claude, 'projects', PROJECT.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(home, 'none'), REMEM_HOLDOUT: '0' };
    const listed = () =>
      readFileSync(join(folder, 'MEMORY.md'), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('- ['));
    const night = (now: string) => {
      expect(remem(['ingest', '--claude', claude], { home, now }).code).toBe(0);
      const ran = remem(['run'], { home, now, env });
      expect(ran.code, ran.stderr).toBe(0);
    };
    mkdirSync(folder, { recursive: true });
    wire(home, claude);
    claudeSession(claude, PROJECT, 'sess-a', '2026-11-10T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it with npm install dayjs now." },
      { user: PNPM },
      { agent: 'Added the CSV export helper in src/utils/csv.ts.' },
      { user: "that's the wrong folder: the CSV export helper belongs next to the exporters in src/export/" },
    ]);
    night('2026-11-11T04:00:00.000Z');
    expect(listed().join('\n')).toContain('pnpm');
    expect(listed().join('\n')).toContain('wrong folder');
    claudeSession(claude, PROJECT, 'sess-b', '2026-11-11T10:00:00.000Z', [
      { user: 'rename the export helper to toCsv' },
      { agent: 'Renamed it and updated the two callers.' },
      { user: 'great, now add a test for the empty table' },
      { agent: 'Added the test; it passes.' },
    ]);
    night('2026-11-12T04:00:00.000Z');
    // "use pnpm not npm" is a rule of the house: it stands after a quiet session; the folder correction does not.
    expect(listed()).toHaveLength(1);
    expect(listed()[0]).toContain('pnpm');
    const primed = remem(['prime'], {
      home,
      now: '2026-11-12T10:00:00.000Z',
      env,
      input: JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        session_id: 'sess-c',
        transcript_path: '/dev/null',
        cwd: PROJECT,
        prompt: 'add another CSV export helper next to the exporters',
      }),
    });
    expect(primed.code, primed.stderr).toBe(0);
    expect(primed.stdout).toContain('wrong folder');
    claudeSession(claude, PROJECT, 'sess-c', '2026-11-12T10:00:00.000Z', [
      { user: 'add zod' },
      { agent: 'Installing it with npm install zod.' },
      { user: 'no, we validate with valibot in this repo, never zod: remove it again' },
    ]);
    night('2026-11-13T04:00:00.000Z');
    expect(listed()).toHaveLength(2);
  });
});

describe('no day left unprotected: what a session taught reaches the next one', () => {
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  const folderOf = (claude: string) =>
    join(claude, 'projects', PROJECT.replace(/[^A-Za-z0-9]/g, '-'), 'memory');

  it('the SessionEnd hook makes lessons at once: the memory folder and prime know them before any night', async () => {
    const home = tempDir();
    const claude = join(tempDir('remem-lessons-src-'), 'claude');
    const transcript = claudeSession(claude, PROJECT, 'sess-end', '2026-11-06T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it with npm install dayjs now." },
      { user: PNPM },
    ]);
    const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(home, 'none'), REMEM_HOLDOUT: '0' };
    wire(home, claude);
    const ended = remem(['prime'], {
      home,
      now: '2026-11-06T10:30:00.000Z',
      env,
      input: JSON.stringify({
        hook_event_name: 'SessionEnd',
        session_id: 'sess-end',
        transcript_path: transcript,
        cwd: PROJECT,
        reason: 'exit',
      }),
    });
    expect(ended.code, ended.stderr).toBe(0);
    // The hook answers at once and learns in a process of its own: wait for it, as the next session would.
    const index = join(folderOf(claude), 'MEMORY.md');
    for (let waited = 0; waited < 300; waited++) {
      if (existsSync(index) && readFileSync(index, 'utf8').includes('pnpm workspace')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readFileSync(index, 'utf8')).toContain('pnpm workspace');
    // No night has run: the lesson is there, and the morning's work (decay, merging) is still the night's.
    const status = remem(['lessons', '--json'], { home, now: '2026-11-06T11:00:00.000Z', env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.stringify(status.json())).toContain('pnpm workspace');
    const next = remem(['prime'], {
      home,
      now: '2026-11-06T11:00:00.000Z',
      env,
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 'sess-next',
        transcript_path: '/dev/null',
        cwd: PROJECT,
        tool_name: 'Bash',
        tool_input: { command: 'npm install zod', description: 'Install zod' },
      }),
    });
    expect(next.stdout).toContain('use pnpm not npm');
  });

  it('ingest --learn says what it learned, and gives way to a night that holds the memory', () => {
    const home = tempDir();
    const claude = join(tempDir('remem-lessons-src-'), 'claude');
    claudeSession(claude, PROJECT, 'sess-learn', '2026-11-07T10:00:00.000Z', [
      { user: 'add dayjs' },
      { agent: "I'll add it with npm install dayjs now." },
      { user: PNPM },
    ]);
    const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(home, 'none') };
    mkdirSync(home, { recursive: true });
    wire(home, claude);
    // A night under way holds the run lock, as `remem run` does.
    const lock = new Database(join(home, 'run.lock.db'));
    lock.exec('BEGIN IMMEDIATE');
    const busy = remem(['ingest', '--learn'], { home, now: '2026-11-07T11:00:00.000Z', env });
    lock.close();
    expect(busy.code, busy.stderr).toBe(0);
    expect(busy.stdout).toContain('Not learned now: another remem run is running');
    const learned = remem(['ingest', '--learn'], { home, now: '2026-11-07T11:05:00.000Z', env });
    expect(learned.code, learned.stderr).toBe(0);
    expect(learned.stdout).toMatch(/Learned now: 1 new lessons?/);
    expect(readFileSync(join(folderOf(claude), 'MEMORY.md'), 'utf8')).toContain('pnpm workspace');
    // The night after still runs as ever, and finds the lesson already made.
    const night = remem(['run'], { home, now: '2026-11-08T04:00:00.000Z', env });
    expect(night.code, night.stderr).toBe(0);
    expect(lessonTexts(home).filter((text) => text.includes('pnpm workspace'))).toHaveLength(1);
  });
});
