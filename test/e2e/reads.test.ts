import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const LATER = '2026-11-02T09:00:00.000Z';

/** A memory with one lesson: a correction about pip, slept on. */
function learned(): string {
  const home = tempDir();
  const event = JSON.stringify({
    kind: 'correction',
    said: 'no, this project uses uv, not pip',
    agent_did: "I'll install it with pip install requests.",
    session: 's1',
    at: '2026-11-01T10:00:00.000Z',
  });
  expect(
    remem(['ingest', '--events', '-'], { home, input: `${event}\n`, now: '2026-11-01T23:00:00.000Z' }).code,
  ).toBe(0);
  expect(remem(['sleep'], { home, now: '2026-11-02T04:00:00.000Z' }).code).toBe(0);
  return home;
}

function strength(home: string): number {
  const listed = remem(['lessons', '--json'], { home, now: LATER }).json<{
    lessons: { strength: number }[];
  }>();
  return listed.lessons[0]!.strength;
}

function recallRows(home: string): { moment: string; lessons: string }[] {
  const db = new Database(join(home, 'remem.db'), { readonly: true });
  try {
    return db
      .prepare("SELECT moment, lesson_hashes AS lessons FROM injections WHERE moment = 'recall'")
      .all() as { moment: string; lessons: string }[];
  } finally {
    db.close();
  }
}

describe('reads are reads: a person looking changes nothing; an agent recalling counts, and is audited', () => {
  it('remem recall from the command line touches nothing unless --touch', () => {
    const home = learned();
    const before = strength(home);
    for (let i = 0; i < 3; i++) {
      const found = remem(['recall', 'pip install', '--all-projects'], { home, now: LATER });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).toContain('uv');
    }
    expect(strength(home)).toBe(before);
    expect(recallRows(home)).toEqual([]);
    expect(remem(['recall', 'pip install', '--all-projects', '--touch'], { home, now: LATER }).code).toBe(0);
    expect(strength(home)).toBeGreaterThan(before);
    expect(remem(['recall', '--help'], { home }).stdout).toContain('--touch');
  });

  it("an agent's recall through MCP counts as use and is audited as the recall moment", async () => {
    const home = learned();
    const before = strength(home);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot, 'bin', 'remem.js'), 'mcp'],
      env: { PATH: process.env['PATH'] ?? '', HOME: home, REMEM_HOME: home, REMEM_NOW: LATER },
    });
    const client = new Client({ name: 'remem-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await client.callTool({ name: 'recall', arguments: { query: 'pip install', k: 3 } });
    } finally {
      await client.close();
    }
    expect(strength(home)).toBeGreaterThan(before);
    const rows = recallRows(home);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.lessons)).toHaveLength(1);
  });
});
