import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../src/core/params.ts';
import { scoreCorrection } from '../../src/episodes/detect.ts';
import { correctionThreshold } from '../../src/episodes/model/correction.ts';
import type { JudgeNote } from '../../src/sleep/report.ts';
import { claudeSession, type Step } from '../e2e/sessions.ts';
import { type Reply, useChatServers } from '../helpers/chat-server.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem, rememAsync } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const chatServer = useChatServers();

const PROJECT = '/tmp/remem-judge-project';
const NIGHT = '2026-11-02T04:00:00.000Z';
const NEXT_NIGHT = '2026-11-03T04:00:00.000Z';
const BEFORE =
  "I've updated the config loader to read the YAML file and added a test for it. The build passes.";

/**
 * A message the learned detector scores just under its threshold, within the judge's band: chosen by scoring, so
 * the tests hold while the weights are fitted again.
 */
const NEAR = (() => {
  const threshold = correctionThreshold();
  const floor = threshold - defaultParams.judge.band;
  const found = [
    'actually the file is toml, not yaml',
    "I don't think that is right",
    'hmm, the config is toml',
    'the tests are in the other folder',
    'it should be the toml file',
    'the settings file is settings.toml, not the yaml one',
    'no, the settings are in settings.toml, not yaml',
    'actually the file is toml, not yaml!',
    'the yaml file is not the one we use',
  ].find((said) => {
    const { hit, score } = scoreCorrection(said, BEFORE);
    return hit === null && score !== null && score >= floor && score < threshold;
  });
  if (!found) throw new Error('no test message scores in the judge band: add one to the list');
  return found;
})();

const steps = (said = NEAR): Step[] => [
  { user: 'Make the config loader read our settings file.' },
  { agent: BEFORE },
  { user: said },
  { agent: 'Understood, I will look at it.' },
];

function ingest(home: string, env: Record<string, string>, sessions = ['s1']): void {
  const claude = join(home, 'claude');
  for (const [index, session] of sessions.entries()) {
    claudeSession(claude, PROJECT, session, `2026-11-01T1${index}:00:00Z`, steps());
  }
  const result = remem(['ingest', '--claude', claude], { home, now: '2026-11-01T23:00:00Z', env });
  expect(result.code, result.stderr).toBe(0);
}

async function sleep(home: string, env: Record<string, string>, now = NIGHT) {
  const result = await rememAsync(['sleep', '--json'], { home, now, env });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{ judge: JudgeNote | null; learned: { kind: string; text: string }[] }>();
}

function corrections(home: string): { said: string; detail: { cue: { rule: string; cue: string } } }[] {
  const result = remem(['episodes', '--kind', 'correction', '--json'], { home, now: NIGHT });
  expect(result.code, result.stderr).toBe(0);
  const body = result.json<{
    episodes: { said: string; detail: { cue: { rule: string; cue: string } } }[];
  }>();
  return body.episodes;
}

function candidateCount(home: string): number {
  const db = new Database(join(home, 'remem.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM candidates').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The judge on, on the OpenAI wire, through the wording model's settings. */
const openai = (root: string): Record<string, string> => ({
  REMEM_JUDGE: 'on',
  REMEM_WORDING: 'openai',
  REMEM_WORDING_URL: `${root}/v1`,
  REMEM_WORDING_MODEL: 'judge-chat',
});

const answer =
  (content: string): (() => Reply) =>
  () => ({ content });

describe('the correction judge', () => {
  it('is off by default: a near-threshold message is no correction, and no candidate is kept or asked about', async () => {
    const home = tempDir();
    const model = await chatServer(answer('yes'));
    // The wording model is configured, the judge is not: the judge never borrows it on its own.
    const env = { ...openai(model.root), REMEM_JUDGE: 'off' };
    ingest(home, env);
    const report = await sleep(home, env);
    expect(report.judge).toBeNull();
    expect(corrections(home)).toEqual([]);
    expect(candidateCount(home)).toBe(0);
    expect(model.seen).toEqual([]);
  });

  it('turns a candidate the judge confirms into a correction episode and a lesson, kept when the session is read again', async () => {
    const home = tempDir();
    const model = await chatServer(answer('Yes.'));
    const env = openai(model.root);
    ingest(home, env);
    expect(corrections(home)).toEqual([]);
    const report = await sleep(home, env);

    expect(model.seen.map((seen) => seen.path)).toEqual(['/v1/chat/completions']);
    const asked = model.seen[0]!.body.messages.at(-1)!.content;
    expect(asked).toContain(NEAR);
    expect(asked).toContain('The build passes.');
    expect(report.judge).toMatchObject({ model: 'openai:judge-chat', asked: 1, confirmed: 1, waiting: 0 });
    const [episode, ...more] = corrections(home);
    expect(more).toEqual([]);
    expect(episode?.said).toBe(NEAR);
    expect(episode?.detail.cue.rule).toBe('JUDGE');
    expect(report.learned.map((line) => line.kind)).toEqual(['correction']);
    expect(readFileSync(join(home, 'morning.md'), 'utf8')).toContain(
      'openai:judge-chat judged 1 message scored just under the correction threshold: 1 confirmed, 0 not; 0 still wait.',
    );

    // The transcript grows and its session is derived again: the confirmed correction stays, and is not asked again.
    const claude = join(home, 'claude');
    claudeSession(claude, PROJECT, 's1', '2026-11-01T10:00:00Z', [
      ...steps(),
      { user: 'Thanks, now add a test.' },
      { agent: 'Added.' },
    ]);
    const again = remem(['ingest', '--claude', claude], { home, now: '2026-11-02T10:00:00Z', env });
    expect(again.code, again.stderr).toBe(0);
    expect(corrections(home).map((e) => e.said)).toEqual([NEAR]);
    await sleep(home, env, NEXT_NIGHT);
    expect(model.seen).toHaveLength(1);
  });

  it('makes no correction of a candidate the judge declines, and does not ask about it again', async () => {
    const home = tempDir();
    const model = await chatServer(answer('No'));
    const env = openai(model.root);
    ingest(home, env);
    const report = await sleep(home, env);
    expect(report.judge).toMatchObject({ asked: 1, confirmed: 0, declined: 1, waiting: 0 });
    expect(corrections(home)).toEqual([]);
    await sleep(home, env, NEXT_NIGHT);
    expect(model.seen).toHaveLength(1);
  });

  it('asks again, on later nights, about an answer neither yes nor no, and gives up after maxTries', async () => {
    const home = tempDir();
    const model = await chatServer(answer('It depends on the project.'));
    const env = openai(model.root);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ params: { judge: { maxTries: 2 } } }));
    ingest(home, env);
    expect((await sleep(home, env)).judge).toMatchObject({ asked: 1, unclear: 1, waiting: 1 });
    expect((await sleep(home, env, NEXT_NIGHT)).judge).toMatchObject({ asked: 1, unclear: 1, waiting: 0 });
    expect((await sleep(home, env, '2026-11-04T04:00:00.000Z')).judge).toMatchObject({ asked: 0 });
    expect(model.seen).toHaveLength(2);
    expect(corrections(home)).toEqual([]);
    expect(candidateCount(home)).toBe(1);
  });

  it('asks at most the night budget, and the rest on the nights after', async () => {
    const home = tempDir();
    const model = await chatServer(answer('yes'));
    const env = openai(model.root);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ params: { judge: { budget: 2 } } }));
    ingest(home, env, ['s1', 's2', 's3']);
    const first = await sleep(home, env);
    expect(model.seen).toHaveLength(2);
    expect(first.judge).toMatchObject({ asked: 2, confirmed: 2, waiting: 1 });
    expect(corrections(home)).toHaveLength(2);
    const second = await sleep(home, env, NEXT_NIGHT);
    expect(model.seen).toHaveLength(3);
    expect(second.judge).toMatchObject({ asked: 1, confirmed: 1, waiting: 0 });
    expect(corrections(home)).toHaveLength(3);
  });

  it.each([
    ['answers HTTP 500', { status: 500, body: '{"error":"overloaded"}' }],
    ['answers garbage', { status: 200, body: '<html>proxy login</html>' }],
    ['never answers', { silent: true }],
  ] as const)(
    'when the server %s, the night completes and the candidate waits for the next',
    async (_, failure) => {
      const home = tempDir();
      const broken = await chatServer(() => failure);
      writeFileSync(join(home, 'config.json'), JSON.stringify({ judge: { timeoutMs: 500 } }));
      ingest(home, openai(broken.root));
      const report = await sleep(home, openai(broken.root));
      expect(broken.seen).toHaveLength(1);
      expect(report.judge).toMatchObject({ asked: 1, confirmed: 0, waiting: 1 });
      expect(report.judge?.failure).toMatch(/the judge openai:judge-chat at .* failed/);
      expect(corrections(home)).toEqual([]);

      const working = await chatServer(answer('yes'));
      const next = await sleep(home, openai(working.root), NEXT_NIGHT);
      expect(next.judge).toMatchObject({ asked: 1, confirmed: 1, waiting: 0, failure: null });
      expect(corrections(home).map((e) => e.said)).toEqual([NEAR]);
    },
  );

  it("speaks Ollama's /api/chat when the judge section of config.json names it", async () => {
    const home = tempDir();
    const model = await chatServer(answer('<think>it says the file is wrong</think>yes'));
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ judge: { enabled: true, api: 'ollama', url: model.root, model: 'judge-local' } }),
    );
    ingest(home, {});
    const report = await sleep(home, {});
    expect(model.seen.map((seen) => seen.path)).toEqual(['/api/chat']);
    expect(model.seen[0]?.body.model).toBe('judge-local');
    expect(report.judge).toMatchObject({ model: 'ollama:judge-local', confirmed: 1 });
    expect(corrections(home).map((e) => e.said)).toEqual([NEAR]);
  });

  it('is refused at start when on without a model, or switched with a word other than on or off', () => {
    const home = tempDir();
    const noModel = remem(['episodes'], { home, env: { REMEM_JUDGE: 'on' } });
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toMatch(/the judge is on but has no model/);
    const badWord = remem(['episodes'], { home, env: { REMEM_JUDGE: 'yes' } });
    expect(badWord.code).toBe(1);
    expect(badWord.stderr).toMatch(/REMEM_JUDGE must be on or off: yes/);
  });
});
