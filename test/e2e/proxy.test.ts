import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem, repoRoot } from '../helpers/remem.ts';

const tempDir = useTempDirs();
const running: (ChildProcess | Server)[] = [];
afterEach(() => {
  for (const item of running.splice(0)) {
    if ('kill' in item) item.kill('SIGTERM');
    else item.close();
  }
});

/** A model server that always offers instead of acting, speaking the Chat Completions wire format. */
async function offeringUpstream(): Promise<{ url: string; seen: unknown[] }> {
  const seen: unknown[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push(JSON.parse(body));
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'local',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: 'The build is green. Want me to deploy it now?' },
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function startProxy(home: string, upstream: string, port: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'bin', 'remem.js'), 'proxy', '--port', String(port), '--openai', upstream],
    {
      env: { PATH: process.env['PATH'] ?? '', HOME: home, REMEM_HOME: home, REMEM_HOLDOUT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  running.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('remem proxy:')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`proxy exited ${code}`)));
  });
}

describe('remem proxy through the official OpenAI client', () => {
  it('passes the reply through and turns a correction made to the model into an episode', async () => {
    const home = tempDir();
    const upstream = await offeringUpstream();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    await startProxy(home, upstream.url, port);
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-test' });
    const first = await client.chat.completions.create({
      model: 'local',
      messages: [{ role: 'user', content: 'run the release checks for the site' }],
    });
    expect(first.choices[0]?.message.content).toBe('The build is green. Want me to deploy it now?');
    await client.chat.completions.create({
      model: 'local',
      messages: [
        { role: 'user', content: 'run the release checks for the site' },
        { role: 'assistant', content: 'The build is green. Want me to deploy it now?' },
        { role: 'user', content: "no, don't ask me, just deploy it yourself" },
      ],
    });
    // What the upstream received is the client's request (no lesson exists yet, so nothing was added).
    expect((upstream.seen[0] as { messages: unknown[] }).messages).toHaveLength(1);
    const ingest = remem(['ingest', '--json'], { home });
    expect(ingest.code, ingest.stderr).toBe(0);
    const episodes = remem(['episodes', '--json', '--kind', 'correction'], { home }).json<{
      episodes: { said: string; agentBefore: string; agent: string }[];
    }>().episodes;
    expect(episodes).toHaveLength(1);
    expect(episodes[0]).toMatchObject({ agent: 'proxy', said: "no, don't ask me, just deploy it yourself" });
    expect(episodes[0]!.agentBefore).toContain('Want me to deploy it now?');
  });
});
