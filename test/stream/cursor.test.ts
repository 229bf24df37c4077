import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readCursorComposers } from '../../src/store/agent-stores.ts';
import { cursorComposerLines, cursorReader } from '../../src/stream/cursor.ts';
import { discoverCursorStores } from '../../src/stream/discover.ts';
import { readText } from './read.ts';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function turnsOf(composer: unknown, bubbles: { id: string; data: unknown }[]) {
  const bytes = cursorComposerLines({
    id: 'c1',
    folder: '/p',
    data: JSON.stringify(composer),
    bubbles: bubbles.map((bubble) => ({ id: bubble.id, data: JSON.stringify(bubble.data) })),
  });
  return bytes === null ? null : readText(cursorReader, bytes.toString('utf8'));
}

const call = (extra: Record<string, unknown>) => ({
  type: 2,
  text: '',
  toolFormerData: { toolCallId: 't', name: 'run_terminal_cmd', params: '{"command":"ls"}', ...extra },
});

describe('the Cursor reader', () => {
  it('reads the bubbles the composer names, in its order, and not those it no longer names', () => {
    const read = turnsOf({ fullConversationHeadersOnly: [{ bubbleId: 'b2' }, { bubbleId: 'b1' }] }, [
      { id: 'b1', data: { type: 2, text: 'the answer' } },
      { id: 'b2', data: { type: 1, text: 'the question' } },
      { id: 'b0', data: { type: 1, text: 'an edited-away prompt' } },
    ]);
    expect(read?.warnings).toEqual([]);
    expect(read?.turns.map((turn) => turn.type)).toEqual(['link', 'prompt', 'reply']);
    expect(read?.turns[1]).toMatchObject({ text: 'the question' });
  });

  it('reads an inline conversation, and a composer naming nothing in the order the bubbles were written', () => {
    const inline = turnsOf(
      {
        createdAt: Date.parse('2026-11-01T10:00:00.000Z'),
        conversation: [{ type: 1, bubbleId: 'x', text: 'hi' }],
      },
      [],
    );
    expect(inline?.turns.map((turn) => turn.type)).toEqual(['link', 'prompt']);
    // Inline bubbles carry no time: they are given the chat's.
    expect(inline?.turns[1]?.at).toBe('2026-11-01T10:00:00.000Z');
    const stub = turnsOf({ fullConversationHeadersOnly: [] }, [
      { id: 'b1', data: { type: 1, text: 'first' } },
      { id: 'b2', data: { type: 2, text: 'second' } },
    ]);
    expect(stub?.turns.map((turn) => turn.type)).toEqual(['link', 'prompt', 'reply']);
    expect(turnsOf({ fullConversationHeadersOnly: [] }, [])).toBeNull();
  });

  it('reads a rejection whatever the status says, a cancelled call as refused, and an error as a failure', () => {
    const results = (extra: Record<string, unknown>) =>
      turnsOf({}, [{ id: 'b', data: call(extra) }])?.turns.filter((turn) => turn.type === 'result');
    expect(results({ status: 'completed', userDecision: 'rejected' })).toMatchObject([{ status: 'refused' }]);
    expect(results({ status: 'completed', additionalData: { userDecision: 'rejected' } })).toMatchObject([
      { status: 'refused' },
    ]);
    expect(results({ status: 'completed', result: '{"rejected":true}' })).toMatchObject([
      { status: 'refused' },
    ]);
    expect(results({ status: 'cancelled' })).toMatchObject([{ status: 'refused' }]);
    expect(results({ status: 'error', result: '{"output":"zsh: command not found: badcmd"}' })).toMatchObject(
      [{ status: 'failed', text: 'zsh: command not found: badcmd' }],
    );
    expect(results({ status: 'completed', result: '{"output":"total 0"}' })).toMatchObject([
      { status: 'ok', text: 'total 0' },
    ]);
    expect(results({ status: 'loading' })).toEqual([]);
  });

  it('reads values stored as BLOBs, and finds the workspaces beside the global store', () => {
    const user = mkdtempSync(join(tmpdir(), 'remem-cursor-'));
    temps.push(user);
    mkdirSync(join(user, 'globalStorage'));
    mkdirSync(join(user, 'workspaceStorage', 'h1'), { recursive: true });
    mkdirSync(join(user, 'workspaceStorage', 'h2'), { recursive: true });
    writeFileSync(join(user, 'workspaceStorage', 'h1', 'workspace.json'), '{"folder":"file:///home/u/proj"}');
    new Database(join(user, 'workspaceStorage', 'h1', 'state.vscdb')).close();
    writeFileSync(join(user, 'workspaceStorage', 'h2', 'workspace.json'), '{"folder":"vscode-remote://x/y"}');
    new Database(join(user, 'workspaceStorage', 'h2', 'state.vscdb')).close();
    const store = join(user, 'globalStorage', 'state.vscdb');
    const db = new Database(store);
    db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    put.run('composerData:c1', Buffer.from('{"composerId":"c1"}'));
    put.run('bubbleId:c1:b1', Buffer.from('{"type":1,"text":"hi"}'));
    put.run('bubbleId:c10:b1', '{"type":1,"text":"another chat"}');
    db.close();
    expect(readCursorComposers(store)).toEqual([
      { id: 'c1', data: '{"composerId":"c1"}', bubbles: [{ id: 'b1', data: '{"type":1,"text":"hi"}' }] },
    ]);
    expect(discoverCursorStores(user)).toEqual({
      global: store,
      workspaces: [
        { store: join(user, 'workspaceStorage', 'h1', 'state.vscdb'), folder: '/home/u/proj' },
        { store: join(user, 'workspaceStorage', 'h2', 'state.vscdb'), folder: null },
      ],
    });
    expect(discoverCursorStores(join(user, 'missing'))).toBeNull();
  });
});

describe('the lines of a Cursor chat', () => {
  it('keep of a bubble only what its turns read, and the turns are the same', () => {
    const content = 'x'.repeat(200_000);
    const bubble = {
      type: 2,
      text: 'Editing it.',
      createdAt: '2026-11-01T10:00:00.000Z',
      attachedFileCodeChunks: [{ content }],
      toolFormerData: {
        toolCallId: 't',
        name: 'edit_file',
        params: JSON.stringify({ target_file: 'src/a.ts', explanation: 'Fix it', code_edit: content }),
        status: 'error',
        result: JSON.stringify({ output: `Error: cannot write src/a.ts\n${content}` }),
      },
    };
    const bytes = cursorComposerLines({
      id: 'c1',
      folder: null,
      data: '{}',
      bubbles: [{ id: 'b1', data: JSON.stringify(bubble) }],
    });
    const text = bytes?.toString('utf8') ?? '';
    expect(text.length).toBeLessThan(70_000);
    const whole = cursorReader.parseLine({ bubble: { id: 'b1', composerId: 'c1', data: bubble } }, 2).turns;
    expect(readText(cursorReader, text).turns).toEqual(whole);
  });
});
