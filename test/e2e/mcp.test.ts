import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((block) => block.text ?? '').join('\n');
}

describe('remem mcp through the official MCP client', () => {
  it('lists three tools with instructions, serves lessons and recall, and remembers an event', async () => {
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

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot, 'bin', 'remem.js'), 'mcp'],
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: home,
        REMEM_HOME: home,
        REMEM_NOW: '2026-11-02T09:00:00.000Z',
      },
    });
    const client = new Client({ name: 'remem-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toMatch(/`lessons` at the start of a task/);
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['lessons', 'recall', 'remember']);

      const lessons = textOf(await client.callTool({ name: 'lessons', arguments: {} }));
      expect(lessons).toContain('no, this project uses uv, not pip');

      const recalled = textOf(
        await client.callTool({ name: 'recall', arguments: { query: 'pip install', k: 3 } }),
      );
      expect(recalled).toContain('uv');

      const stored = await client.callTool({
        name: 'remember',
        arguments: { kind: 'error', title: 'make deploy', happened: 'No rule to make target deploy' },
      });
      expect(stored.isError).toBeFalsy();
      const refused = await client.callTool({ name: 'remember', arguments: { kind: 'correction' } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
    const ingest = remem(['ingest', '--json'], { home, now: '2026-11-02T10:00:00.000Z' }).json<{
      eventsStored: number;
    }>();
    expect(ingest.eventsStored).toBe(1);
  });
});

describe('MCP over Streamable HTTP under remem serve', () => {
  it('serves the same tools at /mcp behind the bearer token', async () => {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const { createApiApp } = await import('../../src/api/index.ts');
    const { resolveConfig } = await import('../../src/core/index.ts');
    const { openStore } = await import('../../src/store/index.ts');
    const { serve } = await import('@hono/node-server');
    const home = tempDir();
    const store = openStore(home);
    const token = 'h'.repeat(64);
    const app = createApiApp({
      store,
      config: resolveConfig({ HOME: home, REMEM_HOME: home }),
      token,
      now: () => new Date().toISOString(),
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const client = new Client({ name: 'remem-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['lessons', 'recall', 'remember']);
      expect(textOf(await client.callTool({ name: 'lessons', arguments: {} }))).toContain('No lessons yet');
    } finally {
      await client.close();
      server.close();
      store.close();
    }
  });
});
