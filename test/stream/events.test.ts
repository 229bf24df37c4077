import { describe, expect, it } from 'vitest';
import { eventKey, eventSchema, parseEventLine, type RememEvent } from '../../src/stream/events.ts';

function parsed(line: string): RememEvent {
  const result = parseEventLine(line, 1);
  if (!('event' in result)) throw new Error(result.error);
  return result.event;
}

describe('parseEventLine', () => {
  it('reads each kind, keeping the known fields and ignoring the rest', () => {
    const correction = {
      kind: 'correction',
      said: 'no, use pnpm — this repo has a pnpm lockfile',
      agent_did: 'Installing p-retry with npm.',
      agent: 'claude-code',
      session: '7a3d2c1e-5b4f-4e8a-9c6d-1f2e3a4b5c6d',
      cwd: '/home/maya/code/tidepool',
      at: '2026-03-05T09:12:41.000Z',
      mood: 'tired',
    };
    const { mood, ...known } = correction;
    expect(parsed(JSON.stringify(correction))).toEqual(known);
    expect(
      parsed('{"kind":"error","title":"pnpm test -- --grep export","happened":"Unknown option --grep"}'),
    ).toEqual({
      kind: 'error',
      title: 'pnpm test -- --grep export',
      happened: 'Unknown option --grep',
    });
    expect(
      parsed('{"kind":"environment","title":"gh pr create","happened":"gh is not logged in"}').kind,
    ).toBe('environment');
    expect(parsed('{"kind":"surprise","expected":"metres","happened":"feet"}').kind).toBe('surprise');
    expect(parsed('{"kind":"note","text":"CI runs Node 20"}').kind).toBe('note');
  });

  it('accepts ISO 8601 times with or without an offset, and dates', () => {
    for (const at of [
      '2026-03-05T09:12:41Z',
      '2026-03-05T09:12:41.123+01:00',
      '2026-03-05T09:12',
      '2026-03-05',
    ]) {
      expect(parsed(JSON.stringify({ kind: 'note', text: 'x', at })).at).toBe(at);
    }
  });

  it.each([
    ['', 'line 1: empty line'],
    ['{"kind":', 'line 1: not JSON'],
    ['\u0000\u00ff\u00fe garbage', 'line 1: not JSON'],
    ['["correction"]', 'line 1: not a JSON object'],
    ['"correction"', 'line 1: not a JSON object'],
    ['{"said":"no"}', 'line 1: missing kind'],
    [
      '{"kind":"lesson","text":"x"}',
      'line 1: kind "lesson" is not one of correction, error, environment, surprise, note',
    ],
    ['{"kind":"correction","agent_did":"ran npm"}', 'line 1: a correction needs said (the person’s words)'],
    ['{"kind":"correction","said":"   "}', 'line 1: a correction needs said (the person’s words)'],
    ['{"kind":"error","happened":"exit 1"}', 'line 1: an error needs title (the call that failed)'],
    ['{"kind":"note","text":"x","at":"last tuesday"}', 'line 1: at is not an ISO 8601 time: "last tuesday"'],
    [
      '{"kind":"note","text":"x","at":"2026-13-45T99:00:00Z"}',
      'line 1: at is not an ISO 8601 time: "2026-13-45T99:00:00Z"',
    ],
    ['{"kind":"note","text":42}', 'line 1: text must be a string'],
  ])('names what is wrong with %j', (line, error) => {
    expect(parseEventLine(line, 1)).toEqual({ error });
  });

  it('numbers the line in the error', () => {
    expect(parseEventLine('{}', 12)).toEqual({ error: 'line 12: missing kind' });
  });

  it('exposes the schema for other edges', () => {
    expect(eventSchema().safeParse({ kind: 'note' }).success).toBe(true);
    expect(eventSchema().safeParse({ kind: 'correction' }).success).toBe(false);
  });
});

describe('eventKey', () => {
  const error: RememEvent = {
    kind: 'error',
    title: 'pnpm test -- --grep export',
    agent: 'claude-code',
    session: 's1',
  };

  it('is the same for the same agent, session, kind and title', () => {
    const key = eventKey(error);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(eventKey({ ...error, happened: 'something else', at: '2026-03-03T15:31:00Z' })).toBe(key);
  });

  it('changes with any part of the identity', () => {
    const key = eventKey(error);
    expect(eventKey({ ...error, title: 'pnpm vitest run -t export' })).not.toBe(key);
    expect(eventKey({ ...error, session: 's2' })).not.toBe(key);
    expect(eventKey({ ...error, agent: 'codex' })).not.toBe(key);
    expect(eventKey({ ...error, kind: 'environment' })).not.toBe(key);
  });

  it('uses what was said, or the text, when there is no title', () => {
    const a: RememEvent = { kind: 'correction', said: 'use pnpm', session: 's1' };
    expect(eventKey({ ...a, agent_did: 'npm install' })).toBe(eventKey(a));
    expect(eventKey({ ...a, said: 'use yarn' })).not.toBe(eventKey(a));
    const note: RememEvent = { kind: 'note', text: 'CI runs Node 20' };
    expect(eventKey(note)).not.toBe(eventKey({ ...note, text: 'CI runs Node 22' }));
    const surprise: RememEvent = { kind: 'surprise', expected: 'metres', happened: 'feet' };
    expect(eventKey(surprise)).not.toBe(eventKey({ ...surprise, happened: 'fathoms' }));
  });
});
