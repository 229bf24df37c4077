import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assemble } from '../../src/stream/assemble.ts';
import { codexReader as reader } from '../../src/stream/codex.ts';
import type { Turn } from '../../src/stream/types.ts';
import { readFile } from './read.ts';

const at = '2026-03-14T09:12:51.000Z';

function item(payload: Record<string, unknown>) {
  return { timestamp: at, type: 'response_item', payload };
}

function event(payload: Record<string, unknown>) {
  return { timestamp: at, type: 'event_msg', payload };
}

function bodies(value: unknown): unknown[] {
  return reader.parseLine(value, 5).turns.map(({ line, part, at, ...body }) => body);
}

function output(text: string) {
  return bodies(item({ type: 'function_call_output', call_id: 'call_1', output: text }))[0];
}

describe('codexReader', () => {
  it('reads the working directory from session_meta and turn_context', () => {
    const meta = {
      timestamp: at,
      type: 'session_meta',
      payload: { id: '0195d2a1-7c3e-7b40-9f18-4a6e2c8d1b07', cwd: '/home/dev/shop', cli_version: '0.144.1' },
    };
    expect(reader.parseLine(meta, 1)).toEqual({
      turns: [{ line: 1, part: 0, at, cwd: '/home/dev/shop', type: 'link' }],
    });
    const context = {
      timestamp: at,
      type: 'turn_context',
      payload: { cwd: '/home/dev/shop/api', model: 'gpt-5.1' },
    };
    expect(bodies(context)).toEqual([{ cwd: '/home/dev/shop/api', type: 'link' }]);
  });

  it('reads both copies of a visible turn, marking the response item as the echo', () => {
    expect(
      bodies(event({ type: 'user_message', message: 'Find out why the export is empty.', images: [] })),
    ).toEqual([{ type: 'prompt', text: 'Find out why the export is empty.' }]);
    const copy = item({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Find out why the export is empty.' }],
    });
    expect(bodies(copy)).toEqual([{ echo: true, type: 'prompt', text: 'Find out why the export is empty.' }]);
    expect(bodies(event({ type: 'agent_message', message: 'Found it.' }))).toEqual([
      { type: 'reply', text: 'Found it.' },
    ]);
    const reply = item({
      type: 'message',
      role: 'assistant',
      id: 'msg_1',
      content: [{ type: 'output_text', text: 'Found it.' }],
    });
    expect(bodies(reply)).toEqual([{ echo: true, type: 'reply', text: 'Found it.', messageId: 'msg_1' }]);
  });

  it('never reads injected context as a prompt', () => {
    const injected = [
      '# AGENTS.md instructions for /home/dev/shop\n\n<INSTRUCTIONS>\nUse npm.\n</INSTRUCTIONS>',
      '<environment_context>\n  <cwd>/home/dev/shop</cwd>\n  <shell>bash</shell>\n</environment_context>',
      '<user_instructions>\nAlways answer in English.\n</user_instructions>',
      '<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>',
    ];
    for (const text of injected) {
      expect(
        bodies(item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] })),
      ).toEqual([]);
    }
    const developer = item({
      type: 'message',
      role: 'developer',
      content: [
        { type: 'input_text', text: '<permissions instructions>\nsandbox\n</permissions instructions>' },
      ],
    });
    expect(bodies(developer)).toEqual([]);
    const mixed = item({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: injected[1] },
        { type: 'input_text', text: 'why is <environment_context> in my prompt?' },
      ],
    });
    expect(bodies(mixed)).toEqual([
      { echo: true, type: 'prompt', text: 'why is <environment_context> in my prompt?' },
    ]);
    const html = '<table><tr><td>why is this cell empty?</td></tr></table>';
    expect(bodies(event({ type: 'user_message', message: html }))).toEqual([{ type: 'prompt', text: html }]);
  });

  it('reads calls: the command line for shell tools, the files for a patch', () => {
    const exec = item({
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({
        cmd: 'node scripts/export-orders.js --since yesterday',
        workdir: '/home/dev/shop',
      }),
      call_id: 'call_1',
    });
    expect(bodies(exec)).toEqual([
      {
        type: 'call',
        callId: 'call_1',
        tool: 'exec_command',
        description: 'node scripts/export-orders.js --since yesterday',
        input: 'node scripts/export-orders.js --since yesterday',
      },
    ]);
    const shell = item({
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: ['bash', '-lc', 'ls -la src'] }),
      call_id: 'call_2',
    });
    expect(bodies(shell)).toMatchObject([{ tool: 'shell', description: 'ls -la src', input: 'ls -la src' }]);
    const patch = item({
      type: 'custom_tool_call',
      name: 'apply_patch',
      call_id: 'call_3',
      input:
        '*** Begin Patch\n*** Update File: scripts/export.js\n@@\n-a\n+b\n*** Add File: test/export.test.js\n+x\n*** End Patch',
    });
    expect(bodies(patch)).toMatchObject([
      { tool: 'apply_patch', description: 'apply_patch scripts/export.js, test/export.test.js' },
    ]);
    const other = item({
      type: 'function_call',
      name: 'update_plan',
      arguments: '{"plan":[]}',
      call_id: 'call_4',
    });
    expect(bodies(other)).toMatchObject([{ tool: 'update_plan', input: '{"plan":[]}' }]);
  });

  it('reads a non-zero exit as a failure, in each output shape', () => {
    expect(
      output(
        "Chunk ID: 5be0a1\nWall time: 0.3121 seconds\nProcess exited with code 2\nOriginal token count: 31\nOutput:\nerror: option '--since <date>' argument 'yesterday' is invalid.\n",
      ),
    ).toEqual({
      type: 'result',
      callId: 'call_1',
      status: 'failed',
      exitCode: 2,
      text: "error: option '--since <date>' argument 'yesterday' is invalid.",
    });
    expect(output('Exit code: 1\nWall time: 0.2 seconds\nOutput:\nnope')).toMatchObject({
      status: 'failed',
      exitCode: 1,
    });
    expect(
      output(
        JSON.stringify({ output: 'cat: .nvmrc: No such file or directory\n', metadata: { exit_code: 1 } }),
      ),
    ).toMatchObject({ status: 'failed', exitCode: 1, text: 'cat: .nvmrc: No such file or directory' });
    expect(
      output(JSON.stringify({ output: 'ok\n', metadata: { exit_code: 0, duration_seconds: 0.1 } })),
    ).toMatchObject({
      status: 'ok',
      exitCode: 0,
      text: 'ok',
    });
    expect(
      output(
        'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\nhi\n',
      ),
    ).toEqual({ type: 'result', callId: 'call_1', status: 'ok', exitCode: 0, text: 'hi' });
  });

  it('reads only the header for the exit code, not the program’s own words', () => {
    const quoted = 'Wall time: 0.1 seconds\nOutput:\n\n\n\nProcess exited with code 1\n';
    expect(output(quoted)).toMatchObject({ status: 'ok' });
    expect(output('Process exited with code 1 is printed by the supervisor')).toMatchObject({ status: 'ok' });
  });

  it('reads a call the person aborted as refused', () => {
    expect(output('Wall time: 6.2 seconds\naborted by user')).toMatchObject({ status: 'refused' });
    const custom = item({
      type: 'custom_tool_call_output',
      call_id: 'call_9',
      output: 'patch rejected by user',
    });
    expect(bodies(custom)).toMatchObject([{ callId: 'call_9', status: 'refused' }]);
  });

  it('reads a turn the person aborted as an interrupt and a compaction as a compaction', () => {
    for (const reason of ['interrupted', 'replaced', undefined])
      expect(bodies(event({ type: 'turn_aborted', reason, turn_id: 't9' }))).toEqual([
        { type: 'interrupt', duringTool: false },
      ]);
    // Ended by Codex itself: nothing the person did.
    for (const reason of ['review_ended', 'budget_limited'])
      expect(bodies(event({ type: 'turn_aborted', reason, turn_id: 't9' }))).toEqual([]);
    const compacted = {
      timestamp: at,
      type: 'compacted',
      payload: { message: 'Summary of the work so far.' },
    };
    expect(bodies(compacted)).toEqual([{ type: 'compaction', text: 'Summary of the work so far.' }]);
  });

  it('gives bookkeeping no turns and warns only about unknown types', () => {
    for (const payload of [
      { type: 'token_count', info: null },
      { type: 'task_started', turn_id: 't1' },
      { type: 'agent_reasoning', text: '**Thinking**' },
    ]) {
      expect(reader.parseLine(event(payload), 3)).toEqual({ turns: [] });
    }
    expect(reader.parseLine(item({ type: 'reasoning', summary: [] }), 3)).toEqual({ turns: [] });
    expect(reader.parseLine({ timestamp: at, type: 'world_state', payload: {} }, 3)).toEqual({ turns: [] });
    expect(reader.parseLine({ timestamp: at, type: 'hologram', payload: {} }, 3)).toEqual({
      turns: [],
      warning: 'unknown record type hologram',
    });
  });

  it('warns about values that are not objects and never throws', () => {
    const garbage = Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01]).toString('latin1');
    for (const value of [null, 3, garbage, ['a']]) {
      expect(reader.parseLine(value, 1)).toEqual({ turns: [], warning: 'not a JSON object' });
    }
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom('response_item', 'event_msg', 'compacted', 'session_meta'),
        (value, type) => {
          reader.parseLine(value, 1);
          reader.parseLine({ type, payload: value }, 1);
          reader.parseLine({ type, payload: { type: 'function_call_output', output: value } }, 1);
          reader.parseLine({ type, payload: { type: 'message', role: 'user', content: value } }, 1);
        },
      ),
    );
  });

  it('finds the thread id at the end of the file name', () => {
    expect(
      reader.sessionOf(
        '/home/dev/.codex/sessions/2026/03/14/rollout-2026-03-14T09-12-44-0195d2a1-7c3e-7b40-9f18-4a6e2c8d1b07.jsonl',
      ),
    ).toBe('0195d2a1-7c3e-7b40-9f18-4a6e2c8d1b07');
    expect(reader.sessionOf('/tmp/rollout-parent.jsonl')).toBe('parent');
  });
});

describe('a Codex rollout from a file', () => {
  const path = join(
    import.meta.dirname,
    '../fixtures/codex/sessions/2026/03/14/rollout-2026-03-14T09-12-44-0195d2a1-7c3e-7b40-9f18-4a6e2c8d1b07.jsonl',
  );

  it('keeps one copy of each visible turn, no injected context, the failure and the interrupt', () => {
    const { turns, warnings } = readFile(reader, path);
    expect(warnings).toEqual([]);
    const conversation = assemble('codex', reader.sessionOf(path), turns);
    expect(conversation.cwd).toBe('/home/dev/shop');
    const items = conversation.items;
    const texts = (type: 'prompt' | 'reply') =>
      items
        .filter((turn): turn is Extract<Turn, { type: 'prompt' | 'reply' }> => turn.type === type)
        .map((t) => t.text);
    expect(texts('prompt')).toEqual([
      'The nightly order export writes an empty CSV since last week. Find out why.',
      "it's hanging because the script defaults to the prod replica, run it with --db staging",
    ]);
    expect(texts('reply')).toHaveLength(3);
    expect(new Set(texts('reply')).size).toBe(3);
    expect(items.some((turn) => turn.echo === true)).toBe(false);
    const results = items.filter((turn): turn is Extract<Turn, { type: 'result' }> => turn.type === 'result');
    expect(results.map((result) => result.status)).toEqual(['failed', 'ok', 'ok', 'ok', 'refused', 'ok']);
    expect(results[0]).toMatchObject({ exitCode: 2 });
    const aborted = items.findIndex((turn) => turn.type === 'interrupt');
    expect(items[aborted - 1]).toMatchObject({ type: 'result', status: 'refused' });
    expect(items[aborted + 1]).toMatchObject({ type: 'prompt' });
  });
});
