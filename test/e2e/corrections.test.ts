import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { remem } from '../helpers/remem.ts';
import { claudeSession, type Step } from './sessions.ts';

const made: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** Plain corrections a person makes, each right after the agent did something else. */
const CORRECTIONS = [
  'please use p-retry, we already depend on it',
  'always store timestamps in UTC',
  'we never use axios here, use the built-in fetch',
  'named exports only please',
  'put new endpoints in src/api/routes/, one file each',
  'use conventional commits',
  'again: use pnpm not npm',
  'please use pnpm, not npm — this repo has a pnpm lockfile',
];
/** An instruction, not a correction. */
const INSTRUCTION = 'stop the dev server and start it again with --inspect';

describe('corrections a new user makes become episodes; instructions do not', () => {
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('each plain correction after the agent acted is an episode, and the order to restart a server is not', () => {
    const home = tempDir('remem-corrections-');
    const claude = join(tempDir('remem-corrections-src-'), 'claude');
    const steps: Step[] = [{ user: 'add retries to the payment client and a new orders endpoint' }];
    for (const said of [...CORRECTIONS, INSTRUCTION]) {
      steps.push({
        agent:
          "I've added the retry logic with axios and a custom backoff helper, committed it, and it should work now.",
      });
      steps.push({ user: said });
    }
    claudeSession(claude, '/tmp/remem-corrections-project', 'sess-c', '2026-11-10T10:00:00.000Z', steps);
    const ingested = remem(['ingest', '--claude', claude], { home, now: '2026-11-10T12:00:00.000Z' });
    expect(ingested.code, ingested.stderr).toBe(0);
    const listed = remem(['episodes', '--kind', 'correction', '--json'], {
      home,
      now: '2026-11-10T12:00:00.000Z',
    });
    expect(listed.code, listed.stderr).toBe(0);
    const saids = listed.json<{ episodes: { said: string | null }[] }>().episodes.map((e) => e.said);
    for (const said of CORRECTIONS) expect(saids, said).toContain(said);
    expect(saids).not.toContain(INSTRUCTION);
  });
});

describe('a Claude Code transcript whose lines name no parent', () => {
  it('is read in file order: its corrections answer the agent’s turn before them', () => {
    const home = tempDir('remem-corrections-');
    const claude = join(tempDir('remem-corrections-src-'), 'claude');
    const steps: Step[] = [
      { user: 'add retries to the payment client' },
      { agent: "I've added the retry logic with axios, and it should work now." },
      { user: 'we never use axios here, use the built-in fetch' },
      { agent: 'Switched to fetch. It should work now.' },
      { user: 'it still crashes with the same error' },
    ];
    claudeSession(claude, '/tmp/remem-corrections-project', 'sess-p', '2026-11-10T10:00:00.000Z', steps, {
      parents: false,
    });
    expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-10T12:00:00.000Z' }).code).toBe(0);
    const episodes = remem(['episodes', '--kind', 'correction', '--json'], {
      home,
      now: '2026-11-10T12:00:00.000Z',
    }).json<{ episodes: { said: string | null; agentBefore: string | null }[] }>().episodes;
    expect(episodes.map((e) => e.said)).toEqual([
      'we never use axios here, use the built-in fetch',
      'it still crashes with the same error',
    ]);
    expect(episodes[1]!.agentBefore).toContain('Switched to fetch');
  });
});

describe('a correction sent right after another message', () => {
  it('still answers what the agent last said', () => {
    const home = tempDir('remem-corrections-');
    const claude = join(tempDir('remem-corrections-src-'), 'claude');
    claudeSession(claude, '/tmp/remem-corrections-project', 'sess-f', '2026-11-10T10:00:00.000Z', [
      { user: 'add a loader for the EEG dataset' },
      { agent: 'I will write the loader and check it with python training/loader.py.' },
      { user: 'go ahead' },
      { user: 'use uv instead of python or python3' },
    ]);
    expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-10T12:00:00.000Z' }).code).toBe(0);
    const episodes = remem(['episodes', '--kind', 'correction', '--json'], {
      home,
      now: '2026-11-10T12:00:00.000Z',
    }).json<{ episodes: { said: string | null; agentBefore: string | null }[] }>().episodes;
    expect(episodes.map((e) => e.said)).toEqual(['use uv instead of python or python3']);
    expect(episodes[0]!.agentBefore).toContain('I will write the loader');
  });
});

describe('a message the agent concedes was right', () => {
  it('is a correction in the person’s words, and the apology a surprise that names it; an agreement is not', () => {
    const home = tempDir('remem-corrections-');
    const claude = join(tempDir('remem-corrections-src-'), 'claude');
    const said = 'did you gather the requirements in a dialog with me first?';
    claudeSession(claude, '/tmp/remem-corrections-project', 'sess-k', '2026-11-10T10:00:00.000Z', [
      { user: 'set up the project structure' },
      { agent: 'I created core/ and conf/ modules. Which modules would you prefer next?' },
      { user: said },
      {
        agent:
          "You're absolutely right, I apologize. I should have asked about the requirements before creating any structure.",
      },
      { user: 'ok, list the questions you have' },
      { agent: 'Sure. Here are my questions about the data sources and the output format.' },
    ]);
    expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-10T12:00:00.000Z' }).code).toBe(0);
    const episodes = remem(['episodes', '--all', '--json'], {
      home,
      now: '2026-11-10T12:00:00.000Z',
    }).json<{
      episodes: {
        key: string;
        kind: string;
        text: string;
        said: string | null;
        agentBefore: string | null;
        detail: Record<string, unknown>;
      }[];
    }>().episodes;
    const corrections = episodes.filter((e) => e.kind === 'correction');
    expect(corrections.map((e) => e.said)).toEqual([said]);
    expect(corrections[0]!.agentBefore).toContain('Which modules would you prefer');
    const surprises = episodes.filter((e) => e.kind === 'surprise');
    expect(surprises.map((e) => e.text)).toEqual([expect.stringContaining("You're absolutely right")]);
    expect(surprises[0]!.detail['concedes']).toBe(corrections[0]!.key);
  });
});

describe('a session that ends with the person stopping the agent', () => {
  const corrections = (home: string, now: string) =>
    remem(['episodes', '--kind', 'correction', '--json'], { home, now }).json<{
      episodes: { said: string | null; agentBefore: string | null; detail: Record<string, unknown> }[];
    }>().episodes;

  it('is a correction when the agent was acting, and not when it had done nothing yet', () => {
    const home = tempDir('remem-corrections-');
    const claude = join(tempDir('remem-corrections-src-'), 'claude');
    const project = '/tmp/remem-corrections-project';
    claudeSession(claude, project, 'sess-i1', '2026-11-10T10:00:00.000Z', [
      { user: 'the death effect never shows up' },
      { agent: 'Let me make the death puff ten times larger as a diagnostic.' },
      {
        call: {
          id: 't1',
          name: 'Bash',
          input: { command: 'sed -i s/160/1600/ Config/Vfx.ini', description: 'Scale the death puff' },
        },
      },
      { interrupted: true },
    ]);
    claudeSession(claude, project, 'sess-i2', '2026-11-10T11:00:00.000Z', [
      { user: 'add a test for the parser' },
      { agent: 'Let me reinitialise task-master and add the two tasks.' },
      { interrupted: true, plain: true },
    ]);
    // Stopping one's own prompt before the agent said or ran anything.
    claudeSession(claude, project, 'sess-i3', '2026-11-10T12:00:00.000Z', [
      { user: 'rename the module' },
      { interrupted: true, plain: true },
    ]);
    const now = '2026-11-10T13:00:00.000Z';
    expect(remem(['ingest', '--claude', claude], { home, now }).code).toBe(0);
    const found = corrections(home, now);
    expect(found.map((e) => e.said)).toEqual([
      '[stopped the agent at: Bash Scale the death puff]',
      '[stopped the agent]',
    ]);
    expect(found[0]!.detail['lastCall']).toBe('sed -i s/160/1600/ Config/Vfx.ini');
    expect(found[0]!.agentBefore).toContain('death puff ten times larger');
    expect(found[1]!.agentBefore).toContain('reinitialise task-master');
    expect(remem(['sleep'], { home, now: '2026-11-11T04:00:00.000Z' }).code).toBe(0);
    const lessons = remem(['lessons', '--json'], { home, now: '2026-11-11T04:00:00.000Z' }).json<{
      lessons: { text: string }[];
    }>().lessons;
    expect(lessons.map((lesson) => lesson.text)).toContain(
      'The person stopped the agent during its Bash call "sed -i s/160/1600/ Config/Vfx.ini".',
    );
  });

  it('gives way to the person’s next words once they write them', () => {
    const home = tempDir('remem-corrections-');
    const claude = join(tempDir('remem-corrections-src-'), 'claude');
    const project = '/tmp/remem-corrections-project';
    const steps: Step[] = [
      { user: 'migrate the orders table' },
      { agent: 'Running the migration against the database now.' },
      { call: { id: 't1', name: 'Bash', input: { command: 'npm run migrate', description: 'Migrate' } } },
      { interrupted: true },
    ];
    claudeSession(claude, project, 'sess-i4', '2026-11-10T10:00:00.000Z', steps);
    expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-10T10:10:00.000Z' }).code).toBe(0);
    expect(corrections(home, '2026-11-10T10:10:00.000Z').map((e) => e.said)).toEqual([
      '[stopped the agent at: Bash Migrate]',
    ]);
    claudeSession(claude, project, 'sess-i4', '2026-11-10T10:00:00.000Z', [
      ...steps,
      { user: 'not against production, use the staging database' },
    ]);
    expect(remem(['ingest', '--claude', claude], { home, now: '2026-11-10T10:20:00.000Z' }).code).toBe(0);
    expect(corrections(home, '2026-11-10T10:20:00.000Z').map((e) => e.said)).toEqual([
      'not against production, use the staging database',
    ]);
  });
});
