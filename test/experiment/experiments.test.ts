import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExperimentSummary, RunReport } from '../../src/experiment/index.ts';
import { askSituations, MEMORY_HEADER, settings } from '../../src/experiment/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import {
  behaviour,
  handsBackUntilReminded,
  keptLines,
  lastUser,
  REMINDER_OPENING,
  runRemem,
  startModelServer,
} from './model-server.ts';

const tempDir = useTempDirs();

describe('the other experiments', () => {
  it('mechanism: eleven arms, each changing what goes before the prompt', async () => {
    const server = await startModelServer(handsBackUntilReminded);
    const home = tempDir();
    const args = [
      'experiment',
      'mechanism',
      '--base-url',
      server.url,
      '--model',
      'm1',
      '--runs',
      '1',
      '--situations',
      '1',
    ];
    const result = await runRemem([...args, '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const summary = (JSON.parse(result.stdout) as RunReport).summary;
    expect(summary.arms.map((arm) => arm.arm)).toEqual([
      'none',
      'memory',
      'tally',
      'memory-after',
      'header',
      'header-unrelated',
      'neutral-notes',
      'handback-lesson',
      'reaction',
      'wants-evidence',
      'preference',
    ]);
    const kept = keptLines(home, 'mechanism');
    const of = (arm: string) => kept.find((reply) => reply.arm === arm)!.messages;
    expect(of('tally')[0]!.content).toContain('offered to act instead of acting 17 times');
    expect(of('memory-after')[0]!.content).toBe(settings.agent);
    expect(of('memory-after')[1]!.content).toContain(MEMORY_HEADER);
    expect(of('preference')[0]!.content).toContain('The user prefers that you act without asking.');
    expect(kept.every((reply) => !reply.reminded)).toBe(true);
  });

  it('loop: tool calls answered by the simulated shell and editor, then the reminder on the final reply', async () => {
    const server = await startModelServer((request) => {
      const calls = request.messages.filter((message) => message.role === 'tool').length;
      if (request.tools.length && calls === 0)
        return { content: '', toolCalls: [{ name: 'shell', arguments: { command: 'npm test' } }] };
      if (request.tools.length && calls === 1)
        return {
          content: 'Tests pass.',
          toolCalls: [{ name: 'edit', arguments: { path: 'src/date.ts', new_text: 'x' } }],
        };
      return lastUser(request).startsWith(REMINDER_OPENING)
        ? { content: 'Pushed the fix to main.' }
        : { content: 'Fixed and tested. Should I push it?' };
    });
    const home = tempDir();
    const args = [
      'experiment',
      'loop',
      '--base-url',
      server.url,
      '--model',
      'm1',
      '--runs',
      '1',
      '--situations',
      '2',
    ];
    const result = await runRemem([...args, '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const kept = keptLines(home, 'loop');
    expect(kept).toHaveLength(8);
    expect(kept.every((reply) => reply.toolCalls === 2)).toBe(true);
    const tools = kept[0]!.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.content);
    expect(tools).toEqual([expect.stringContaining('passed'), 'Edited src/date.ts: 1 change applied.']);
    const arms = Object.fromEntries(
      (JSON.parse(result.stdout) as RunReport).summary.arms.map((arm) => [arm.arm, arm]),
    );
    expect(arms['none']!.pooled.k).toBe(2);
    expect(arms['reminder']!.pooled.k).toBe(0);
    expect(arms['reminder']!.usedTools).toBe(2);
    // The reminder arm has nothing up front, as the shipped defaults deliver memory.
    expect(kept.find((reply) => reply.arm === 'reminder')!.messages[0]!.content).toBe(settings.agent);
  });

  it('loop: after eight calls the model is asked without tools', async () => {
    const server = await startModelServer((request) =>
      request.tools.length
        ? { content: '', toolCalls: [{ name: 'shell', arguments: { command: 'git status' } }] }
        : { content: 'I ran out of calls; the tree is clean.' },
    );
    const home = tempDir();
    const args = [
      'experiment',
      'loop',
      '--base-url',
      server.url,
      '--model',
      'm1',
      '--runs',
      '1',
      '--situations',
      '1',
    ];
    const result = await runRemem(args, { home });
    expect(result.code, result.stderr).toBe(0);
    const kept = keptLines(home, 'loop');
    expect(kept.every((reply) => reply.toolCalls === 8 && reply.reply.startsWith('I ran out'))).toBe(true);
    expect(server.requests.filter((request) => request.tools.length === 0)).toHaveLength(4);
  });

  it('boundary, then preference pairs in the conversational format TRL reads', async () => {
    // Where asking is right, this model asks one time and acts the next, situation by situation.
    const asked = new Map<string, number>();
    const server = await startModelServer((request, index) => {
      const said = lastUser(request);
      if (said.startsWith(REMINDER_OPENING) || !askSituations.some((situation) => situation.prompt === said))
        return handsBackUntilReminded(request, index);
      const times = asked.get(said) ?? 0;
      asked.set(said, times + 1);
      return {
        content:
          times % 2 === 0
            ? 'Only you have this: please send it and I will go on.'
            : 'Done: I went ahead with it.',
      };
    });
    const home = tempDir();
    const act = await runRemem(behaviour(server.url), { home });
    expect(act.code, act.stderr).toBe(0);
    const ask = await runRemem(
      [
        'experiment',
        'boundary',
        '--base-url',
        server.url,
        '--model',
        'm1',
        '--runs',
        '2',
        '--situations',
        '6',
        '--json',
      ],
      { home },
    );
    expect(ask.code, ask.stderr).toBe(0);
    const summary = (JSON.parse(ask.stdout) as RunReport).summary as ExperimentSummary;
    expect(summary.counts).toBe('asked');

    const out = join(tempDir(), 'pairs.jsonl');
    const pairs = await runRemem(['experiment', 'pairs', '--out', out, '--boundary-share', '0.3', '--json'], {
      home,
    });
    expect(pairs.code, pairs.stderr).toBe(0);
    const report = JSON.parse(pairs.stdout) as {
      act: number;
      boundary: number;
      available: { boundary: number };
    };
    // Six reminder pairs (three situations, two settings); 0.3 of all pairs boundary: round(0.3 × 6 / 0.7) = 3.
    expect(report.act).toBe(6);
    expect(report.boundary).toBe(Math.min(3, report.available.boundary));
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(report.act + report.boundary);
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(['chosen', 'prompt', 'rejected']);
      expect(line.prompt.map((message: { role: string }) => message.role)).toEqual(['system', 'user']);
      expect(line.prompt[0].content).not.toContain(MEMORY_HEADER);
      expect(line.chosen).toEqual([{ role: 'assistant', content: expect.any(String) }]);
      expect(line.rejected).toEqual([{ role: 'assistant', content: expect.any(String) }]);
    }
    expect(lines[0].chosen[0].content).toBe('Done: I did it myself and pushed the result to main.');
    expect(lines[0].rejected[0].content).toBe('Everything is ready. Want me to go ahead and do it?');

    const bad = await runRemem(['experiment', 'pairs', '--out', out, '--boundary-share', '1'], { home });
    expect(bad.code).toBe(2);
  });

  it('refuses an unknown experiment and a run without a model', async () => {
    const home = tempDir();
    expect((await runRemem(['experiment', 'vibes'], { home })).code).toBe(2);
    expect((await runRemem(['experiment', 'behaviour'], { home })).code).toBe(2);
  });
});
