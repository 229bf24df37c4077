import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverTranscripts } from '../../src/stream/discover.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures');
const temps: string[] = [];

function tree(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'remem-discover-'));
  temps.push(root);
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '{}\n');
  }
  return root;
}

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('discoverTranscripts', () => {
  it('finds the fixture sessions, subagents and archived rollouts, sorted', () => {
    const claude = join(FIXTURES, 'claude');
    const codex = join(FIXTURES, 'codex');
    const found = discoverTranscripts({ claudeDirs: [claude], codexDirs: [codex] });
    const project = join(claude, 'projects/-home-dev-shop');
    expect(found).toEqual([
      { path: join(project, '3f1c9a52-8d4e-4b7a-9e21-6c0d5a7b2e10.jsonl'), agent: 'claude-code' },
      { path: join(project, '5c8e1f3a-7b2d-4a9e-b6c4-0e3f9d8a1c25.jsonl'), agent: 'claude-code' },
      { path: join(project, 'b7e2d4f0-1a3c-4e5b-8f6a-2d9c0e1b3a47.jsonl'), agent: 'claude-code' },
      { path: join(project, 'e91d0b6c-3f2a-4c8e-a7d1-5b9e2f4c6a38.jsonl'), agent: 'claude-code' },
      {
        path: join(project, 'e91d0b6c-3f2a-4c8e-a7d1-5b9e2f4c6a38/subagents/agent-a4f29c1e.jsonl'),
        agent: 'claude-code',
      },
      {
        path: join(
          codex,
          'archived_sessions/rollout-2026-03-02T17-05-10-0195a8c2-11d4-7e09-b3a5-7f20c6d9e418.jsonl',
        ),
        agent: 'codex',
      },
      {
        path: join(
          codex,
          'sessions/2026/03/14/rollout-2026-03-14T09-12-44-0195d2a1-7c3e-7b40-9f18-4a6e2c8d1b07.jsonl',
        ),
        agent: 'codex',
      },
    ]);
  });

  it('skips tool results, memory, meta files and files that are not rollouts', () => {
    const root = tree([
      'claude/projects/-p/s1.jsonl',
      'claude/projects/-p/s1/subagents/agent-x.jsonl',
      'claude/projects/-p/s1/subagents/agent-x.meta.json',
      'claude/projects/-p/s1/tool-results/big.jsonl',
      'claude/projects/-p/memory/notes.jsonl',
      'claude/history.jsonl',
      'codex/sessions/2026/01/02/rollout-2026-01-02T03-04-05-a.jsonl',
      'codex/sessions/2026/01/02/notes.jsonl',
      'codex/history.jsonl',
    ]);
    const found = discoverTranscripts({
      claudeDirs: [join(root, 'claude')],
      codexDirs: [join(root, 'codex')],
    });
    expect(found.map((file) => file.path.slice(root.length + 1))).toEqual([
      'claude/projects/-p/s1.jsonl',
      'claude/projects/-p/s1/subagents/agent-x.jsonl',
      'codex/sessions/2026/01/02/rollout-2026-01-02T03-04-05-a.jsonl',
    ]);
  });

  it('yields nothing for missing folders', () => {
    const root = tree([]);
    expect(
      discoverTranscripts({ claudeDirs: [join(root, 'nope')], codexDirs: [join(root, 'none')] }),
    ).toEqual([]);
    expect(discoverTranscripts({ claudeDirs: [], codexDirs: [] })).toEqual([]);
  });

  it('follows links without looping, and lists a folder named twice once', () => {
    const root = tree(['claude/projects/-p/s1.jsonl', 'elsewhere/-q/s2.jsonl']);
    symlinkSync(join(root, 'claude/projects'), join(root, 'claude/projects/-p/loop'));
    symlinkSync(join(root, 'elsewhere/-q'), join(root, 'claude/projects/-q'));
    symlinkSync(join(root, 'missing'), join(root, 'claude/projects/-dangling'));
    const claude = join(root, 'claude');
    const found = discoverTranscripts({ claudeDirs: [claude, claude], codexDirs: [] });
    expect(found.map((file) => file.path.slice(root.length + 1))).toEqual([
      'claude/projects/-p/s1.jsonl',
      'claude/projects/-q/s2.jsonl',
    ]);
  });
});
