import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** A chat request as the model server received it, raw body kept to look for what must not be in it. */
export interface Seen {
  path: string;
  raw: string;
  body: { model: string; messages: { role: string; content: string }[] };
}

export type Reply = { content: string } | { status: number; body: string } | { silent: true };

export interface ChatServer {
  /** The server's root: Ollama's base URL; the OpenAI wire's is `${root}/v1`. */
  root: string;
  seen: Seen[];
  close(): Promise<void>;
}

/**
 * A local chat model speaking Ollama's `/api/chat` and the OpenAI `/v1/chat/completions` wire formats, with
 * scripted replies: the stand-in for a language model. Used by the tests (`useChatServers`) and the benchmarks.
 */
export async function startChatServer(reply: (seen: Seen) => Reply | Promise<Reply>): Promise<ChatServer> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', async () => {
      const request: Seen = { path: req.url ?? '', raw, body: JSON.parse(raw) };
      seen.push(request);
      const answer = await reply(request);
      if ('silent' in answer) return; // never answers: the caller's timeout must end the wait
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
        return;
      }
      const message = { role: 'assistant', content: answer.content };
      const body =
        request.path === '/api/chat'
          ? {
              model: request.body.model,
              created_at: '2026-11-02T04:00:00Z',
              message,
              done: true,
              done_reason: 'stop',
            }
          : request.path === '/v1/chat/completions'
            ? {
                id: 'chatcmpl-1',
                object: 'chat.completion',
                model: request.body.model,
                choices: [{ index: 0, message, finish_reason: 'stop' }],
              }
            : null;
      if (body === null) res.writeHead(404).end('404 page not found');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    root: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `startChatServer` for a test file: each server started is closed after its test. */
export function useChatServers(): (reply: (seen: Seen) => Reply) => Promise<ChatServer> {
  const open: ChatServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (reply) => {
    const server = await startChatServer(reply);
    open.push(server);
    return server;
  };
}

/** A port nothing listens on: one that was open a moment ago. */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
