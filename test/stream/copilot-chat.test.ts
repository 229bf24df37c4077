import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  copilotChatReader,
  copilotSessionLines,
  copilotSessionState,
} from '../../src/stream/copilot-chat.ts';
import { discoverCopilotSessions } from '../../src/stream/discover.ts';
import { readText } from './read.ts';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function read(session: unknown) {
  const bytes = copilotSessionLines(copilotSessionState(JSON.stringify(session), false), '/p');
  return readText(copilotChatReader, bytes?.toString('utf8') ?? '');
}

const tool = (extra: Record<string, unknown>) => ({
  kind: 'toolInvocationSerialized',
  toolId: 'run_in_terminal',
  toolCallId: 't1',
  invocationMessage: 'Running a command',
  isComplete: true,
  ...extra,
});

describe('the Copilot Chat reader', () => {
  it('reads the old string message, markdownContent parts, and replies split by a tool call', () => {
    const { turns, warnings } = read({
      sessionId: 's',
      creationDate: Date.parse('2026-11-01T10:00:00.000Z'),
      requests: [
        {
          requestId: 'r1',
          message: 'hello',
          response: [
            { kind: 'markdownContent', content: { value: 'Looking.' } },
            tool({ isConfirmed: true, resultDetails: { input: '{"command":"ls"}', output: [] } }),
            { value: 'Done.' },
          ],
          isCanceled: false,
        },
      ],
    });
    expect(warnings).toEqual([]);
    expect(turns.map((turn) => turn.type)).toEqual(['link', 'prompt', 'reply', 'call', 'result', 'reply']);
    const replies = turns.filter((turn) => turn.type === 'reply');
    expect(new Set(replies.map((turn) => (turn as { messageId?: string }).messageId)).size).toBe(2);
    expect(turns.find((turn) => turn.type === 'call')).toMatchObject({
      input: 'ls',
      tool: 'run_in_terminal',
    });
    // A request of an old session has no time of its own: it is given the session's.
    expect(turns.find((turn) => turn.type === 'prompt')?.at).toBe('2026-11-01T10:00:00.000Z');
  });

  it('reads a denial (old and new form), a terminal exit code, and a stopped answer', () => {
    const results = (part: unknown) =>
      read({ requests: [{ requestId: 'r', message: { text: 'go' }, response: [part] }] }).turns.filter(
        (turn) => turn.type === 'result',
      );
    expect(results(tool({ isConfirmed: false }))).toMatchObject([{ status: 'refused' }]);
    expect(results(tool({ isConfirmed: { type: 0 } }))).toMatchObject([{ status: 'refused' }]);
    expect(
      results(
        tool({
          isConfirmed: { type: 4 },
          toolSpecificData: {
            kind: 'terminal',
            commandLine: { original: 'make' },
            terminalCommandState: { exitCode: 2 },
            terminalCommandOutput: { text: 'make: *** No rule to make target' },
          },
        }),
      ),
    ).toMatchObject([{ status: 'failed', exitCode: 2, text: 'make: *** No rule to make target' }]);
    const stopped = read({
      requests: [
        {
          requestId: 'r',
          message: { text: 'go' },
          response: [tool({ isConfirmed: { type: 1 } })],
          modelState: { value: 2 },
        },
      ],
    });
    expect(stopped.turns.at(-1)).toMatchObject({ type: 'interrupt', duringTool: true });
  });

  it('applies a log as VS Code does: set, push, push from an index, delete', () => {
    const log = [
      { kind: 0, v: { sessionId: 's', requests: [] } },
      { kind: 2, k: ['requests'], v: [{ requestId: 'r', message: { text: 'hi' }, response: [] }] },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'one' }, { value: 'two' }] },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'three' }], i: 1 },
      { kind: 1, k: ['requests', 0, 'modelState'], v: { value: 1 } },
      { kind: 3, k: ['requests', 0, 'modelState'] },
    ];
    const state = copilotSessionState(log.map((entry) => JSON.stringify(entry)).join('\n'), true);
    expect(state.skipped).toEqual([]);
    expect(state.session).toEqual({
      sessionId: 's',
      requests: [
        { requestId: 'r', message: { text: 'hi' }, response: [{ value: 'one' }, { value: 'three' }] },
      ],
    });
  });

  it('applies a push of more items than a call can take as arguments', () => {
    const parts = Array.from({ length: 200_000 }, (_, i) => ({ value: `part ${i}` }));
    const log = [
      {
        kind: 0,
        v: { sessionId: 's', requests: [{ requestId: 'r', message: { text: 'hi' }, response: [] }] },
      },
      { kind: 2, k: ['requests', 0, 'response'], v: parts },
    ];
    const state = copilotSessionState(log.map((entry) => JSON.stringify(entry)).join('\n'), true);
    expect(state.skipped).toEqual([]);
    const response = (state.session as { requests: { response: unknown[] }[] }).requests[0]!.response;
    expect(response).toHaveLength(200_000);
    expect(response.at(-1)).toEqual({ value: 'part 199999' });
  });

  it('finds workspace sessions with their folder and empty-window ones, the log before the document', () => {
    const user = mkdtempSync(join(tmpdir(), 'remem-vscode-'));
    temps.push(user);
    const sessions = join(user, 'workspaceStorage', 'h1', 'chatSessions');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(user, 'workspaceStorage', 'h1', 'workspace.json'), '{"folder":"file:///home/u/proj"}');
    for (const name of ['a.json', 'a.jsonl', 'b.json', 'notes.txt'])
      writeFileSync(join(sessions, name), '{}');
    const empty = join(user, 'globalStorage', 'emptyWindowChatSessions');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'c.jsonl'), '{}');
    expect(discoverCopilotSessions(user)).toEqual([
      { path: join(empty, 'c.jsonl'), folder: null },
      { path: join(sessions, 'a.jsonl'), folder: '/home/u/proj' },
      { path: join(sessions, 'b.json'), folder: '/home/u/proj' },
    ]);
  });
});

describe('the Copilot Chat log', () => {
  it('never follows a path out of the session', () => {
    const log = [
      { kind: 0, v: { sessionId: 's', requests: [] } },
      { kind: 1, k: ['__proto__', 'polluted'], v: true },
      { kind: 1, k: ['requests', 'constructor', 'prototype', 'polluted'], v: true },
    ];
    const state = copilotSessionState(log.map((entry) => JSON.stringify(entry)).join('\n'), true);
    expect(state.skipped.map((skip) => skip.line)).toEqual([2, 3]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('the lines of a Copilot Chat session', () => {
  it('keep of a part only what its turns read, and the turns are the same', () => {
    const content = 'x'.repeat(200_000);
    const part = tool({
      isConfirmed: { type: 4 },
      toolSpecificData: { kind: 'input', rawInput: { filePath: '/p/a.ts', content } },
      resultDetails: {
        input: JSON.stringify({ filePath: '/p/a.ts', content }),
        output: [
          { type: 'embed', isText: true, value: `Error: cannot write /p/a.ts\n${content}` },
          { type: 'embed', value: content },
        ],
        isError: true,
      },
    });
    const session = {
      sessionId: 's',
      requests: [{ requestId: 'r', message: { text: 'go' }, response: [part] }],
    };
    const bytes = copilotSessionLines(copilotSessionState(JSON.stringify(session), false), null);
    const text = bytes?.toString('utf8') ?? '';
    expect(text.length).toBeLessThan(140_000);
    const line = { part: { requestId: 'r', index: 0, replyId: 'r:0', timestamp: null, data: part } };
    const whole = copilotChatReader.parseLine(line, 3).turns;
    expect(readText(copilotChatReader, text).turns.filter((turn) => turn.line === 3)).toEqual(whole);
  });
});
