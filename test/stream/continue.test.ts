import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { continueReader, continueSessionLines } from '../../src/stream/continue.ts';
import { readText } from './read.ts';

const AT = '2026-11-01T10:00:00.000Z';

function read(session: unknown) {
  const bytes = continueSessionLines(JSON.stringify(session), AT);
  return readText(continueReader, bytes?.toString('utf8') ?? '');
}

describe('the Continue reader', () => {
  it('reads the person’s messages and the model’s, from strings or text parts, in the workspace the session names', () => {
    const { turns, warnings } = read({
      sessionId: 's1',
      title: 'retry',
      workspaceDirectory: 'file:///work/my%20shop',
      history: [
        { message: { role: 'user', content: 'add a retry to the fetch' }, contextItems: [] },
        {
          message: { role: 'assistant', content: [{ type: 'text', text: 'Done: it retries three times.' }] },
          contextItems: [],
        },
        { message: { role: 'thinking', content: 'hmm' }, contextItems: [] },
        {
          message: {
            role: 'user',
            content: [
              { type: 'imageUrl', imageUrl: { url: 'x' } },
              { type: 'text', text: 'use p-retry, we already depend on it' },
            ],
          },
          contextItems: [],
        },
      ],
    });
    expect(warnings).toEqual([]);
    expect(
      turns.map(
        (turn) =>
          `${turn.type}:${turn.type === 'prompt' || turn.type === 'reply' ? turn.text : (turn.cwd ?? '')}`,
      ),
    ).toEqual([
      'link:/work/my shop',
      'prompt:add a retry to the fetch',
      'reply:Done: it retries three times.',
      'prompt:use p-retry, we already depend on it',
    ]);
    expect(turns.every((turn) => turn.at === AT)).toBe(true);
  });

  it('reads each tool call with how it ended, in either shape Continue kept them', () => {
    const state = (id: string, name: string, args: unknown, status: string, output?: string[]) => ({
      toolCallId: id,
      toolCall: { id, type: 'function', function: { name, arguments: JSON.stringify(args) } },
      status,
      parsedArgs: args,
      ...(output
        ? { output: output.map((content) => ({ name: 'Terminal', description: '', content })) }
        : {}),
    });
    const { turns, warnings } = read({
      workspaceDirectory: '/work/shop',
      history: [
        { message: { role: 'user', content: 'run the tests' }, contextItems: [] },
        {
          message: { role: 'assistant', content: 'Running them.' },
          contextItems: [],
          toolCallStates: [
            state('c1', 'run_terminal_command', { command: 'npm test' }, 'errored', [
              'run_terminal_command failed with the message: Error: Command failed: npm test\nnpm ERR! Missing script: "test"\n\nPlease try something else or request further instructions.',
            ]),
            state('c2', 'read_file', { filepath: 'package.json' }, 'done', ['{ "name": "shop" }']),
            state('c3', 'create_new_file', { filepath: 'a.ts', contents: 'x' }, 'canceled'),
            state('c4', 'view_diff', {}, 'generated'),
          ],
        },
        { message: { role: 'tool', content: 'npm ERR!', toolCallId: 'c1' }, contextItems: [] },
        {
          message: { role: 'assistant', content: '' },
          contextItems: [],
          toolCallState: {
            ...state('c5', 'ls', { dirPath: 'src' }, 'done', ['index.ts']),
            parsedArgs: undefined,
          },
        },
        { message: { role: 'assistant', content: '' }, contextItems: [], toolCallStates: ['x', null] },
      ],
    });
    expect(warnings).toEqual([]);
    const calls = turns.flatMap((turn) =>
      turn.type === 'call' ? [`call:${turn.callId}:${turn.tool}:${turn.input}`] : [],
    );
    expect(calls).toEqual([
      'call:c1:run_terminal_command:npm test',
      'call:c2:read_file:package.json',
      'call:c3:create_new_file:a.ts',
      'call:c4:view_diff:{}',
      'call:c5:ls:src',
    ]);
    const results = turns.flatMap((turn) =>
      turn.type === 'result' ? [`${turn.callId}:${turn.status}:${turn.text}`] : [],
    );
    expect(results).toEqual([
      'c1:failed:Error: Command failed: npm test\nnpm ERR! Missing script: "test"',
      'c2:ok:{ "name": "shop" }',
      'c3:refused:',
      'c5:ok:index.ts',
    ]);
    // The tool's own message is not the conversation's words.
    expect(
      turns.filter((turn) => turn.type === 'reply').map((turn) => turn.type === 'reply' && turn.text),
    ).toEqual(['Running them.']);
  });

  it('never throws on any JSON in a session, its tool calls or the lines made of it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (value, state) => {
        const item = { message: { role: 'assistant', content: value }, toolCallStates: [state, value] };
        const session = {
          workspaceDirectory: value,
          history: [value, item, { ...item, toolCallState: state }],
        };
        const bytes = continueSessionLines(JSON.stringify(session), AT);
        expect(bytes).not.toBeNull();
        readText(continueReader, bytes!.toString('utf8'));
        continueReader.parseLine(value, 1);
        continueReader.parseLine({ at: AT, call: value }, 1);
        continueReader.parseLine(
          { at: AT, call: { id: value, tool: value, input: value, status: 'errored', output: value } },
          1,
        );
      }),
    );
  });

  it('says what it cannot read, and takes a plain path for the workspace', () => {
    expect(continueSessionLines('{"sessionId":"s"}', AT)).toBeNull();
    expect(continueSessionLines('{"history": [', AT)).toBeNull();
    const { turns, warnings } = read({
      workspaceDirectory: '/work/site',
      history: ['x', { message: { role: 'user', content: 'hi' } }],
    });
    expect(turns[0]).toMatchObject({ type: 'link', cwd: '/work/site' });
    expect(warnings.map((warning) => warning.reason)).toEqual(['a history item without a message']);
    expect(continueReader.sessionOf('/h/.continue/sessions/5f1c.json')).toBe('5f1c');
  });
});
