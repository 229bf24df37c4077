import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { lessonHash } from '../../src/core/index.ts';
import { closedPort, useChatServers } from '../helpers/chat-server.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, rememAsync } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const chatServer = useChatServers();

const NIGHT = '2026-11-02T04:00:00.000Z';

function event(fields: Record<string, unknown>): string {
  return JSON.stringify({ agent: 'claude-code', cwd: '/tmp/remem-wording-project', ...fields });
}

const lintError = (session: string, hour: number, extra: Record<string, unknown> = {}) =>
  event({
    kind: 'error',
    title: 'Bash: npm run lint',
    happened: 'npm ERR! Missing script: "lint"',
    session,
    at: `2026-11-01T${String(hour).padStart(2, '0')}:00:00Z`,
    ...extra,
  });

const stalePort = (session: string, hour: number) =>
  event({
    kind: 'surprise',
    text: 'I was wrong: the dev server listens on port 5173, not 3000 as I assumed.',
    session,
    at: `2026-11-01T${String(hour).padStart(2, '0')}:30:00Z`,
  });

const correction = event({
  kind: 'correction',
  said: 'no, this project uses uv, not pip',
  agent_did: "I'll install the dependency with pip install requests.",
  session: 's9',
  at: '2026-11-01T09:00:00Z',
});

function ingest(home: string, events: string[]): void {
  const file = join(home, 'events.jsonl');
  writeFileSync(file, `${events.join('\n')}\n`);
  const result = remem(['ingest', '--events', file], { home, now: '2026-11-01T23:00:00Z' });
  expect(result.code, result.stderr).toBe(0);
}

interface Report {
  wording: { model: string; asked: number; reworded: number; fallback: string | null } | null;
  learned: { id: number; kind: string; text: string }[];
  refused: { text: string; reason: string }[];
}

async function sleep(home: string, env: Record<string, string>) {
  const result = await rememAsync(['sleep', '--json'], { home, now: NIGHT, env });
  expect(result.code, result.stderr).toBe(0);
  return result.json<Report>();
}

function lessons(home: string): { id: number; kind: string; text: string; hash: string }[] {
  const result = remem(['lessons', '--json'], { home, now: NIGHT });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{ lessons: { id: number; kind: string; text: string; hash: string }[] }>().lessons;
}

const ollama = (root: string) => ({
  REMEM_WORDING: 'ollama',
  REMEM_WORDING_URL: root,
  REMEM_WORDING_MODEL: 'test-chat',
});

describe('lesson wording by a local model', () => {
  it('an observational wording replaces the text and the hash, audited with the model; corrections are never sent', async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2), correction]);
    const wording = 'Running npm run lint failed twice because package.json had no "lint" script.';
    const model = await chatServer(() => ({ content: `<think>the surprises agree</think>\n${wording}\n` }));
    const report = await sleep(home, ollama(model.root));

    expect(model.seen).toHaveLength(1);
    expect(model.seen[0]!.path).toBe('/api/chat');
    expect(model.seen[0]!.body.model).toBe('test-chat');
    expect(model.seen[0]!.raw).toContain('Missing script');
    expect(model.seen[0]!.raw, 'a correction is never put to the model').not.toContain('uv, not pip');
    expect(report.wording).toEqual({ model: 'ollama:test-chat', asked: 1, reworded: 1, fallback: null });

    const [error, corr] = ['error', 'correction'].map((kind) => lessons(home).find((l) => l.kind === kind));
    expect(error?.text).toBe(wording);
    expect(error?.hash).toBe(lessonHash('error', wording));
    expect(corr?.text).toContain('"no, this project uses uv, not pip"');
    expect(report.learned.find((line) => line.kind === 'error')?.text).toBe(wording);
    const file = readFileSync(join(home, 'lessons.jsonl'), 'utf8').trim().split('\n');
    expect(file.map((line) => (JSON.parse(line) as { text: string }).text)).toContain(wording);
    expect(readFileSync(join(home, 'morning.md'), 'utf8')).toContain(
      'ollama:test-chat worded 1 of 1 new lessons',
    );

    const db = new Database(join(home, 'remem.db'), { readonly: true });
    try {
      const audit = db
        .prepare("SELECT hash, reason FROM audit WHERE action = 'reword' AND lesson_id = ?")
        .all(error!.id) as { hash: string; reason: string }[];
      expect(audit).toHaveLength(1);
      expect(audit[0]!.hash).toBe(error!.hash);
      expect(audit[0]!.reason).toContain('worded by ollama:test-chat');
      const stored = db.prepare('SELECT report FROM sleeps ORDER BY id DESC LIMIT 1').get() as {
        report: string;
      };
      expect(JSON.parse(stored.report).wording.reworded).toBe(1);
    } finally {
      db.close();
    }
  });

  it('an imperative answer is refused with its reason and the deterministic wording kept (OpenAI wire, config.json)', async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2)]);
    const model = await chatServer(() => ({ content: 'Always run npm ci first.' }));
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ wording: { api: 'openai', url: `${model.root}/v1`, model: 'test-chat' } }),
    );
    const report = await sleep(home, {});

    expect(model.seen.map((seen) => seen.path)).toEqual(['/v1/chat/completions']);
    const [lesson] = lessons(home);
    expect(lesson?.text).toBe('The agent\'s a tool call failed: "npm ERR! Missing script: "lint""');
    expect(lesson?.hash).toBe(lessonHash('error', lesson!.text));
    expect(report.wording).toMatchObject({ asked: 1, reworded: 0, fallback: null });
    expect(report.refused).toEqual([
      {
        text: 'Always run npm ci first.',
        reason: expect.stringMatching(
          /openai:test-chat's wording of lesson \d+: text is an instruction.*"always"/,
        ),
      },
    ]);
    expect(readFileSync(join(home, 'morning.md'), 'utf8')).toContain('- Always run npm ci first. (');
  });

  it('a wording that quotes what no surprise says is refused', async () => {
    const home = tempDir();
    ingest(home, [stalePort('s1', 1), stalePort('s2', 2)]);
    const model = await chatServer(() => ({
      content: 'The agent assumed the dev server was on port 3000, and the person said "it was 8080".',
    }));
    const report = await sleep(home, ollama(model.root));
    expect(model.seen).toHaveLength(1);
    expect(report.refused[0]?.reason).toContain('text quotes "it was 8080", which no surprise says');
    expect(lessons(home)[0]?.text).toContain('The agent found it had been wrong');
  });

  it('a wording whose hash is tombstoned is refused: a vetoed wording is never written again', async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2)]);
    const wording = 'The lint script was missing from package.json.';
    const model = await chatServer(() => ({ content: wording }));
    await sleep(home, ollama(model.root));
    const [first] = lessons(home);
    expect(first?.text).toBe(wording);
    const vetoed = remem(['forget', String(first!.id)], { home, now: NIGHT });
    expect(vetoed.code, vetoed.stderr).toBe(0);

    // The same failure in another project makes a lesson of its own, and the model words it the same way.
    const elsewhere = { cwd: '/tmp/remem-wording-other' };
    const file = join(home, 'events-2.jsonl');
    writeFileSync(file, `${[lintError('s5', 5, elsewhere), lintError('s6', 6, elsewhere)].join('\n')}\n`);
    expect(remem(['ingest', '--events', file], { home, now: '2026-11-02T23:00:00Z' }).code).toBe(0);
    const result = await rememAsync(['sleep', '--json'], {
      home,
      now: '2026-11-03T04:00:00Z',
      env: ollama(model.root),
    });
    expect(result.code, result.stderr).toBe(0);
    const report = result.json<Report>();
    expect(report.learned).toHaveLength(1);
    expect(report.refused[0]?.reason).toContain('the wording is tombstoned');
    expect(report.learned[0]?.text).toMatch(/^The agent's a tool call failed/);
  });

  it('a model that is down leaves the night whole: exit 0, deterministic wordings, said once', async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2), stalePort('s3', 3), stalePort('s4', 4)]);
    const report = await sleep(home, ollama(await closedPort()));
    expect(report.learned).toHaveLength(2);
    expect(report.wording?.asked).toBe(0);
    expect(report.wording?.fallback).toMatch(
      /wording model ollama:test-chat .* failed \(.*\); 2 new lessons kept/,
    );
    for (const lesson of lessons(home)) expect(lesson.text).toMatch(/^The agent/);
    const morning = readFileSync(join(home, 'morning.md'), 'utf8');
    expect(morning.match(/Note: the wording model/g)).toHaveLength(1);
  });

  it('a model that answers garbage is asked once, not once per lesson', async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2), stalePort('s3', 3), stalePort('s4', 4)]);
    const model = await chatServer(() => ({ status: 200, body: '<html>proxy login</html>' }));
    const report = await sleep(home, ollama(model.root));
    expect(model.seen).toHaveLength(1);
    expect(report.wording?.fallback).toContain('the answer is not JSON');
    expect(lessons(home).every((lesson) => lesson.text.startsWith('The agent'))).toBe(true);
  });

  it('a model that never answers is given up on at its timeout', async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2)]);
    const model = await chatServer(() => ({ silent: true }));
    writeFileSync(join(home, 'config.json'), JSON.stringify({ wording: { timeoutMs: 200 } }));
    const report = await sleep(home, ollama(model.root));
    expect(report.wording?.fallback).toContain('no answer within 200 ms');
    expect(lessons(home)[0]?.text).toMatch(/^The agent's a tool call/);
  });

  it("the night's budget bounds the wait as well: a silent model costs no more than it", async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2)]);
    const model = await chatServer(() => ({ silent: true }));
    writeFileSync(join(home, 'config.json'), JSON.stringify({ params: { wording: { budgetMs: 250 } } }));
    const report = await sleep(home, ollama(model.root));
    expect(model.seen).toHaveLength(1);
    // The wait was what was left of the budget when the model was asked: at most the budget, however busy the machine.
    const waited = Number(/no answer within (\d+) ms/.exec(report.wording?.fallback ?? '')?.[1]);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(250);
  });

  it('nothing that looks like a secret reaches the model unmasked', async () => {
    const home = tempDir();
    const token = 'ghp_1234567890abcdefghijABCDEFGHIJ123456';
    const key = 'sk-proj-4fJk2LmN8pQrStUvWxYz0123456789';
    const leaky = (session: string, hour: number) =>
      lintError(session, hour, {
        title: `Bash: curl -H "Authorization: token ${token}" https://api.github.com/user`,
        happened: `401 Bad credentials for ${token}; OPENAI_API_KEY=${key}`,
      });
    ingest(home, [leaky('s1', 1), leaky('s2', 2)]);
    const model = await chatServer(() => ({ content: `The GitHub API refused the token ${token} twice.` }));
    const report = await sleep(home, ollama(model.root));
    expect(model.seen).toHaveLength(1);
    expect(model.seen[0]!.raw).toContain('[secret]');
    expect(model.seen[0]!.raw).not.toContain(token);
    expect(model.seen[0]!.raw).not.toContain(key);
    // The answer is masked too, as the deterministic wording is.
    expect(report.wording?.reworded).toBe(1);
    expect(lessons(home)[0]?.text).toBe('The GitHub API refused the token [secret] twice.');
  });

  it('without a wording model nothing is asked and the report says nothing of one', async () => {
    const home = tempDir();
    ingest(home, [lintError('s1', 1), lintError('s2', 2)]);
    const report = await sleep(home, {});
    expect(report.wording).toBeNull();
    expect(readFileSync(join(home, 'morning.md'), 'utf8')).not.toContain('worded');
  });

  it('a wording model without a name, or an unknown wire, is refused at start with what to set', () => {
    const home = tempDir();
    const unnamed = remem(['sleep'], { home, now: NIGHT, env: { REMEM_WORDING: 'ollama' } });
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain('REMEM_WORDING_MODEL');
    const unknown = remem(['sleep'], {
      home,
      now: NIGHT,
      env: { REMEM_WORDING: 'gpt', REMEM_WORDING_MODEL: 'm' },
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('REMEM_WORDING must be none, ollama or openai: gpt');
  });
});
