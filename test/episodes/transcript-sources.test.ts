/**
 * Which agent a transcript named by path is read as: told by what the file holds, whatever its name or place; under
 * a folder, the files that are no transcript are passed over, while a file named that is none says why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptSources } from '../../src/episodes/transcript-sources.ts';
import { useTempDirs } from '../helpers/home.ts';
import { CLI } from '../stream/specstory-exports.ts';

const tempDir = useTempDirs();

const lines = (...records: unknown[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;

const CLAUDE = lines(
  { type: 'summary', summary: 'retries', leafUuid: 'u2' },
  { type: 'user', sessionId: 's1', uuid: 'u1', cwd: '/work/shop', message: { role: 'user', content: 'hi' } },
);
const CODEX = lines({
  timestamp: '2026-03-02T17:05:10Z',
  type: 'session_meta',
  payload: { id: 'r1', cwd: '/w' },
});
const GEMINI = lines({
  sessionId: 'g1',
  projectHash: 'abc',
  startTime: '2026-10-30T09:00:00Z',
  lastUpdated: '',
});
const AIDER =
  '\n# aider chat started at 2026-10-30 09:00:00\n\n> Aider v0.86.1  \n\n#### add retries  \n\nDone.\n';
const CONTINUE = JSON.stringify({
  sessionId: 'k1',
  title: 'retries',
  workspaceDirectory: 'file:///work/shop',
  history: [{ message: { role: 'user', content: 'add retries' }, contextItems: [] }],
});
const CLINE = JSON.stringify([{ ts: 1761991200000, type: 'say', say: 'task', text: 'add retries' }]);
const COPILOT_SESSION = {
  version: 3,
  responderUsername: 'GitHub Copilot',
  sessionId: 'c1',
  creationDate: 1761991200000,
  requests: [
    {
      requestId: 'r1',
      timestamp: 1761991200000,
      message: { text: 'add retries' },
      response: [{ value: 'Done.' }],
      modelState: { value: 1 },
    },
  ],
};
const COPILOT_LOG = lines({ kind: 0, v: COPILOT_SESSION });

function write(root: string, path: string, text: string): string {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const read = (path: string) =>
  transcriptSources(path).map(({ path: source, agent, unreadable }) => ({
    source: source.slice(path.length),
    agent,
    ...(unreadable !== undefined && { unreadable }),
  }));

describe('transcriptSources', () => {
  it('tells each agent by what its file holds, under any name or folder', () => {
    const root = tempDir('remem-sniff-');
    write(root, 'a/session.jsonl', CLAUDE);
    write(root, 'b/codex.jsonl', CODEX);
    write(root, 'c/chat.jsonl', GEMINI);
    write(root, 'd/.aider.chat.history.md', AIDER);
    write(root, 'e/k1.json', CONTINUE);
    write(root, '.cline/tasks/1/ui_messages.json', CLINE);
    write(root, `g/.specstory/history/${CLI.name}`, CLI.text);
    write(root, 'i/chatSessions/c1.jsonl', COPILOT_LOG);
    write(root, 'j/c2.json', JSON.stringify({ ...COPILOT_SESSION, sessionId: 'c2' }));
    // Passed over: data in JSON Lines and JSON, a package's manifest, Markdown outside SpecStory's folder, hidden folders
    // no agent keeps chats in.
    write(root, 'h/rows.jsonl', lines({ sku: 'a1' }, { sku: 'b2' }));
    write(root, 'h/config.json', '{"theme": "dark"}');
    write(root, 'h/api.json', '{"sessionId": "x1", "requests": [{"url": "/orders", "method": "GET"}]}');
    write(root, 'package.json', '{"name": "shop"}');
    write(root, 'README.md', '# shop\n\n#### add retries\n');
    write(root, '.git/logs.jsonl', CLAUDE);
    const cache = write(root, '.cache/agent/session.jsonl', CLAUDE);
    const found = read(root);
    expect(found.map(({ source, agent }) => `${agent} ${source.split('#')[0]}`)).toEqual([
      'cline /.cline/tasks/1/ui_messages.json',
      'claude-code /a/session.jsonl',
      'codex /b/codex.jsonl',
      'gemini-cli /c/chat.jsonl',
      'aider /d/.aider.chat.history.md',
      'continue /e/k1.json',
      `specstory /g/.specstory/history/${CLI.name}`,
      'copilot-chat /i/chatSessions/c1.jsonl',
      'copilot-chat /j/c2.json',
    ]);
    expect(found.every((source) => source.unreadable === undefined)).toBe(true);
    // A hidden folder that is no agent's is passed over under a folder, and read when named.
    expect(read(join(root, '.cache')).map(({ source, agent }) => `${agent} ${source}`)).toEqual([
      `claude-code ${cache.slice(join(root, '.cache').length)}`,
    ]);
  });

  it('reads past a broken first line, and says why of a named file that is no transcript', () => {
    const root = tempDir('remem-sniff-');
    const broken = write(root, 'cut.jsonl', `{"type": "user", "sessi\n${CLAUDE}`);
    expect(read(broken)).toEqual([{ source: '', agent: 'claude-code' }]);
    const refused = (path: string, text: string) => read(write(root, path, text))[0]?.unreadable;
    expect(refused('rows.jsonl', lines({ sku: 'a1' }))).toBe(
      'JSON Lines, but not a transcript of Claude Code, Codex, Gemini CLI or Copilot Chat',
    );
    // A record typed as Claude Code's, but stamped with no session or message of it, is no transcript.
    expect(refused('users.jsonl', lines({ type: 'user', name: 'ada' }))).toBe(
      'JSON Lines, but not a transcript of Claude Code, Codex, Gemini CLI or Copilot Chat',
    );
    // A log that opens as VS Code's, cut inside its first line: no session in it.
    expect(refused('log.jsonl', '{"kind":0,"v":{"requests":[{"requ\n')).toBe('no chat session in it');
    expect(refused('notes.md', '# notes\n')).toBe(
      'Markdown, but neither an aider chat history nor a SpecStory export',
    );
    expect(refused('config.json', '{"history": 3}')).toBe(
      'JSON, but neither a Cline task (ui_messages.json), a Continue session nor a Copilot Chat session',
    );
    expect(refused('broken.json', '[{"type": "say", "say": ')).toBe('not a JSON array of panel messages');
    expect(refused('photo.png', 'PNG')).toBe('not a transcript Remem reads (.jsonl, .json or .md)');
    expect(read(tempDir('remem-empty-'))).toEqual([
      {
        source: '',
        agent: 'claude-code',
        unreadable: 'no transcript of an agent Remem reads under this folder',
      },
    ]);
  });
});
