import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/experiment/index.ts';
import { handbackLesson, MEMORY_HEADER, settings } from '../../src/experiment/index.ts';
import { fisherExact } from '../../src/measure/index.ts';
import { nudgeText, reminderText } from '../../src/prime/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import {
  type Answer,
  behaviour,
  handsBackUntilReminded,
  keptLines,
  runRemem,
  spawnRemem,
  startModelServer,
} from './model-server.ts';

const tempDir = useTempDirs();

describe('remem experiment behaviour, against a scripted OpenAI-compatible server', () => {
  it('runs four arms in two settings and reports hand-back rates with Fisher p against none', async () => {
    const server = await startModelServer(handsBackUntilReminded);
    const home = tempDir();
    const result = await runRemem([...behaviour(server.url), '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as RunReport;
    expect(report).toMatchObject({ experiment: 'behaviour', planned: 24, kept: 24, skipped: 0 });
    const rows = Object.fromEntries(report.summary.arms.map((arm) => [arm.arm, arm]));
    expect(rows['none']!.pooled).toEqual({ k: 6, n: 6, rate: 1 });
    expect(rows['context']!.pooled).toEqual({ k: 6, n: 6, rate: 1 });
    expect(rows['reminder']!.pooled).toEqual({ k: 0, n: 6, rate: 0 });
    expect(rows['reminder']!.reminded).toBe(6);
    expect(rows['nudge']!.pooled).toEqual({ k: 0, n: 6, rate: 0 });
    expect(rows['reminder']!.p).toBeCloseTo(fisherExact({ a: 0, b: 6, c: 6, d: 0 }), 12);
    expect(rows['reminder']!.p).toBeCloseTo(0.002165, 6);
    expect(rows['context']!.bySetting).toEqual({
      agent: { k: 3, n: 3, rate: 1 },
      assistant: { k: 3, n: 3, rate: 1 },
    });

    // What the model was sent: the chat API, temperature 0.7, the memory up front in the system prompt for
    // context, reminder and nudge; the hooks' reminder (with the lesson) or the nudge (without) as a second turn.
    expect(server.requests.every((request) => request.path === '/v1/chat/completions')).toBe(true);
    expect(server.requests.every((request) => request.temperature === 0.7 && request.model === 'm1')).toBe(
      true,
    );
    const kept = keptLines(home, 'behaviour');
    expect(kept).toHaveLength(24);
    const byArm = (arm: string) => kept.filter((reply) => reply.arm === arm);
    expect(byArm('none').every((reply) => reply.messages[0]!.content === settings[reply.setting])).toBe(true);
    expect(
      byArm('context').every((reply) => String(reply.messages[0]!.content).includes(MEMORY_HEADER)),
    ).toBe(true);
    expect(byArm('reminder').map((reply) => reply.messages[3]!.content)).toEqual(
      Array(6).fill(reminderText(handbackLesson)),
    );
    expect(byArm('nudge').map((reply) => reply.messages[3]!.content)).toEqual(Array(6).fill(nudgeText()));
    expect(byArm('reminder')[0]).toMatchObject({
      first: 'Everything is ready. Want me to go ahead and do it?',
      firstHandback: true,
      reply: 'Done: I did it myself and pushed the result to main.',
      handback: false,
      reminded: true,
    });

    const table = await runRemem(['experiment', 'show'], { home });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/reminder\s+0% \(0 of 6\)\s+0\.0022/);
    expect(table.stdout).toContain('mechanism: no replies kept yet.');
  });

  it('pools several models', async () => {
    const server = await startModelServer(handsBackUntilReminded);
    const home = tempDir();
    const args = [
      'experiment',
      'behaviour',
      '--base-url',
      server.url,
      '--model',
      'llama3.2:3b',
      '--model',
      'gemma3:4b',
    ];
    const result = await runRemem([...args, '--runs', '1', '--situations', '1'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/none\s+100% \(2 of 2\)\s+100% \(2 of 2\)\s+100% \(4 of 4\)/);
    expect(readdirSync(join(home, 'experiments', 'behaviour')).sort()).toEqual([
      'gemma3_4b.jsonl',
      'llama3.2_3b.jsonl',
    ]);
  });

  it('stops when the server fails, keeps nothing broken, and goes on where it stopped', async () => {
    const server = await startModelServer((request, index) =>
      index < 5 ? handsBackUntilReminded(request, index) : { status: 500, body: '{"error":"out of memory"}' },
    );
    const home = tempDir();
    const failed = await runRemem(behaviour(server.url, ['--tries', '3', '--retry-ms', '10']), { home });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('HTTP 500');
    expect(failed.stderr).toContain('trying again');
    expect(failed.stderr).toContain('gave up after 3 tries');
    expect(failed.stderr).toContain('the same command goes on from there');
    const before = keptLines(home, 'behaviour');
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(5);

    server.script = handsBackUntilReminded;
    const resumed = await runRemem([...behaviour(server.url), '--json'], { home });
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout) as RunReport;
    expect(report.skipped).toBe(before.length);
    expect(report.kept).toBe(24 - before.length);
    const after = keptLines(home, 'behaviour');
    expect(after).toHaveLength(24);
    expect(new Set(after.map((reply) => reply.key)).size).toBe(24);
    expect(after.every((reply) => reply.reply.length > 0)).toBe(true);
  });

  it('waits out garbage, a slow answer and a dropped connection, and says so', async () => {
    const trouble: Answer[] = [
      { status: 200, body: '<html>502 Bad Gateway</html>' },
      { status: 200, body: '{"choices":[]}' },
      { content: '<think>hmm</think>' },
      { hangUp: true },
      { delayMs: 1500, answer: { content: 'late' } },
    ];
    const server = await startModelServer(
      (request, index) => trouble[index] ?? handsBackUntilReminded(request, index),
    );
    const home = tempDir();
    const result = await runRemem(
      behaviour(server.url, ['--tries', '6', '--retry-ms', '10', '--timeout-ms', '500']),
      {
        home,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('the answer is not JSON');
    expect(result.stderr).toContain('not a chat completion');
    expect(result.stderr).toContain('the answer is empty');
    expect(result.stderr).toContain('cannot reach');
    expect(result.stderr).toContain('no answer within');
    const kept = keptLines(home, 'behaviour');
    expect(kept).toHaveLength(24);
    expect(kept.some((reply) => reply.reply === 'late' || reply.reply.includes('think'))).toBe(false);
  });

  it('says the server is down after the tries it was given, having kept nothing', async () => {
    const server = await startModelServer(handsBackUntilReminded);
    const url = server.url;
    await server.close();
    const home = tempDir();
    const result = await runRemem(behaviour(url, ['--tries', '2', '--retry-ms', '10']), { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot reach .*ECONNREFUSED.*trying again in/);
    expect(result.stderr).toContain('gave up after 2 tries');
    expect(result.stderr).toContain('0 replies kept by this run');
  });

  it('fails at once on an answer no retry can change', async () => {
    const server = await startModelServer(() => ({
      status: 404,
      body: '{"error":"model \\"m1\\" not found"}',
    }));
    const home = tempDir();
    const result = await runRemem(behaviour(server.url, ['--retry-ms', '10']), { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 404');
    expect(result.stderr).toContain('not found');
    expect(server.requests).toHaveLength(1);
  });

  it('resumes after a kill, without a duplicate or a torn line', async () => {
    const server = await startModelServer((request, index) => ({
      delayMs: 40,
      answer: handsBackUntilReminded(request, index),
    }));
    const home = tempDir();
    const run = spawnRemem(behaviour(server.url), { home });
    const file = join(home, 'experiments', 'behaviour', 'm1.jsonl');
    for (let waited = 0; waited < 20_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        if (readFileSync(file, 'utf8').split('\n').filter(Boolean).length >= 4) break;
      } catch {
        // not written yet
      }
    }
    run.child.kill('SIGKILL');
    await run.done;
    const partial = keptLines(home, 'behaviour').length;
    expect(partial).toBeGreaterThanOrEqual(4);
    expect(partial).toBeLessThan(24);
    // A write cut short by the kill: part of a line, no newline.
    appendFileSync(file, '{"v":1,"key":"m1 · agent · release-ready · none · 9","reply":"Every');

    const resumed = await runRemem(behaviour(server.url), { home });
    expect(resumed.code, resumed.stderr).toBe(0);
    const kept = keptLines(home, 'behaviour');
    expect(kept).toHaveLength(24);
    expect(new Set(kept.map((reply) => reply.key)).size).toBe(24);
  });
});
