/**
 * Transcripts named by path (`--transcript`, `REMEM_TRANSCRIPTS`): files copied from another machine or committed
 * to a repository, each read as the agent that wrote it, told by what the file holds; under a folder the files that
 * are no transcript are passed over, and a file named that is none is refused by name while the rest are read.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { CLINE_MESSAGES, clineTask } from '../stream/cline-tasks.ts';
import { agentsAndProjects, correctionsSaid, digest, episodesOf, ingest } from './readers.ts';
import { claudeSession } from './sessions.ts';

const tempDir = useTempDirs();

const CODEX_FIXTURE = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'codex',
  'archived_sessions',
  'rollout-2026-03-02T17-05-10-0195a8c2-11d4-7e09-b3a5-7f20c6d9e418.jsonl',
);

/** A repository that keeps its team's transcripts: a Claude Code session, a Codex rollout, a Cline task, beside data. */
function repository(): { root: string; claude: string; codex: string; task: string } {
  const root = tempDir('remem-transcripts-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'package.json'), '{"name": "shop", "dependencies": {}}');
  const written = claudeSession(tempDir('remem-claude-'), '/work/shop', 'c1', '2026-10-30T09:00:00.000Z', [
    { user: 'add retries to the client' },
    { agent: 'I added axios-retry and wrapped the client with it.' },
    { user: 'we never use axios here, use the built-in fetch' },
    { agent: 'Understood, I will rewrite it with fetch.' },
  ]);
  const claude = join(root, 'transcripts', 'claude', 'c1.jsonl');
  mkdirSync(dirname(claude), { recursive: true });
  cpSync(written, claude);
  const codex = join(root, 'transcripts', 'codex', 'rollout-0195a8c2.jsonl');
  mkdirSync(dirname(codex), { recursive: true });
  cpSync(CODEX_FIXTURE, codex);
  const editor = tempDir('remem-vscode-');
  const taskDir = dirname(
    clineTask(editor, 'saoudrizwan.claude-dev', '1761991200000', CLINE_MESSAGES, '/work/site'),
  );
  cpSync(taskDir, join(root, '.cline', 'tasks', '1761991200000'), { recursive: true });
  // Data that is no one's chat: a JSON Lines file of records and a JSON file of settings.
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'prices.jsonl'), '{"sku": "a1", "price": 3}\n{"sku": "b2", "price": 5}\n');
  writeFileSync(join(root, 'data', 'settings.json'), '{"theme": "dark"}');
  return { root, claude, codex, task: join(root, '.cline', 'tasks', '1761991200000', 'ui_messages.json') };
}

describe('transcripts named by path', () => {
  it('read each file under a folder as the agent that wrote it, and pass over what is no transcript', () => {
    const repo = repository();
    const before = [repo.claude, repo.codex, repo.task].map(digest);
    const home = tempDir();
    const report = ingest(home, ['--transcript', repo.root]);
    expect(report.warnings).toEqual([]);
    expect(report.filesRead).toBe(3);
    const episodes = episodesOf(home);
    expect(correctionsSaid(episodes)).toEqual(
      expect.arrayContaining([
        'we never use axios here, use the built-in fetch',
        'please use pnpm, not npm — this repo has a pnpm lockfile',
      ]),
    );
    const read = agentsAndProjects(episodes);
    expect(read).toContain('claude-code /work/shop');
    expect(read).toContain('cline /work/site');
    expect([...read].some((pair) => pair.startsWith('codex '))).toBe(true);
    // Read, never written; and read again, nothing is new.
    expect([repo.claude, repo.codex, repo.task].map(digest)).toEqual(before);
    expect(ingest(home, ['--transcript', repo.root]).filesRead).toBe(0);
    // The archive alone rebuilds the same episodes.
    const said = correctionsSaid(episodes);
    ingest(home, ['--from-raw']);
    expect(correctionsSaid(episodesOf(home))).toEqual(said);
  });

  it('refuse a named file that is no transcript by name, and read the others named beside it', () => {
    const repo = repository();
    const home = tempDir();
    const data = join(repo.root, 'data', 'prices.jsonl');
    const settings = join(repo.root, 'data', 'settings.json');
    const report = ingest(home, [
      '--transcript',
      data,
      '--transcript',
      settings,
      '--transcript',
      repo.claude,
    ]);
    expect(report.filesRead).toBe(1);
    expect(report.warnings).toEqual([
      {
        file: data,
        reason:
          'not read: JSON Lines, but not a transcript of Claude Code, Codex, Gemini CLI or Copilot Chat',
      },
      {
        file: settings,
        reason:
          'not read: JSON, but neither a Cline task (ui_messages.json), a Continue session nor a Copilot Chat session',
      },
    ]);
    expect(correctionsSaid(episodesOf(home))).toEqual(['we never use axios here, use the built-in fetch']);
  });

  it('say so of a folder holding none, refuse a path that is not there, and are read nightly from REMEM_TRANSCRIPTS', () => {
    const empty = tempDir('remem-empty-');
    writeFileSync(join(empty, 'notes.md'), '# notes\n');
    const home = tempDir();
    expect(ingest(home, ['--transcript', empty]).warnings).toEqual([
      { file: empty, reason: 'not read: no transcript of an agent Remem reads under this folder' },
    ]);
    const missing = remem(['ingest', '--transcript', join(empty, 'gone.jsonl')], { home });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--transcript');
    expect(missing.stderr).toContain('no such file or folder');

    const repo = repository();
    const none = join(empty, 'none');
    const bare = ingest(tempDir(), [], {
      REMEM_TRANSCRIPTS: repo.claude,
      CLAUDE_CONFIG_DIR: none,
      CODEX_HOME: none,
      GEMINI_CLI_HOME: none,
      XDG_CONFIG_HOME: none,
      XDG_DATA_HOME: none,
      CONTINUE_GLOBAL_DIR: none,
    });
    expect(bare.filesRead).toBe(1);
  });
});
