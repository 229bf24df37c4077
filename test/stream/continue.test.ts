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
