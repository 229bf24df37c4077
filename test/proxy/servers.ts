import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterEach } from 'vitest';
import {
  createProxyApp,
  type Exchange,
  type Injection,
  type InjectRequest,
  type Placement,
  type ProxyDeps,
} from '../../src/proxy/index.ts';
import {
  anthropicJson,
  anthropicStream,
  chatJson,
  chatStream,
  responsesJson,
  responsesStream,
} from './wire.ts';

/** A request as the upstream received it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Everything the upstream wrote back. */
  sent: Buffer[];
  /** The connection went away before the upstream ended its answer. */
  closedEarly: boolean;
  /** How a paused stream went on: the test let it (`released`) or the wait ran out (`timeout`). */
  resumed?: 'released' | 'timeout';
}

/** What the upstream answers: a JSON body, or a stream written one event per write. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  events?: string[];
  /** After the first event, wait for this before writing the rest (at most two seconds). */
  pauseAfterFirst?: Promise<void>;
  /** Keep the stream open after the last event, until the client goes away. */
  hold?: boolean;
  /** Drop the connection after the last event, the answer unfinished. */
  broken?: boolean;
}

export type Script = (request: Received) => Answer;

/** The default script: each API's real answer, streaming when asked, with a tool call when tools were given. */
export const speakTheApis: Script = (request) => {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(request.body.toString('utf8'));
  } catch {
    return { body: JSON.stringify({ path: request.url, length: request.body.length }) };
  }
  const stream = body.stream === true;
  const tool = Array.isArray(body.tools) && body.tools.length > 0;
  const path = request.url.split('?')[0];
  if (path === '/v1/chat/completions') {
    return stream ? { events: chatStream({ tool }) } : { body: JSON.stringify(chatJson({ tool })) };
  }
  if (path === '/v1/responses') {
    return stream ? { events: responsesStream({ tool }) } : { body: JSON.stringify(responsesJson({ tool })) };
  }
  if (path === '/v1/messages') {
    return stream ? { events: anthropicStream({ tool }) } : { body: JSON.stringify(anthropicJson({ tool })) };
  }
  return { body: JSON.stringify({ path: request.url, length: request.body.length }) };
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

export interface Upstream {
  url: string;
  received: Received[];
}

/** A model server on 127.0.0.1 that speaks the real wire formats and keeps what it received. */
export async function startUpstream(script: Script = speakTheApis): Promise<Upstream> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        sent: [],
        closedEarly: false,
      };
      received.push(request);
      res.on('close', () => {
        if (!res.writableFinished) request.closedEarly = true;
      });
      void answer(request, script(request), res);
    });
  });
  return { url: await listen(server), received };
}

/** Listens on a free loopback port until the test ends. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function answer(request: Received, reply: Answer, res: ServerResponse): Promise<void> {
  const write = (data: string | Buffer): void => {
    const bytes = Buffer.from(data);
    request.sent.push(bytes);
    res.write(bytes);
  };
  if (!reply.events) {
    const body = Buffer.from(reply.body ?? '');
    res.writeHead(reply.status ?? 200, {
      'content-type': 'application/json',
      'content-length': String(body.length),
      ...reply.headers,
    });
    request.sent.push(body);
    res.end(body);
    return;
  }
  res.writeHead(reply.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...reply.headers,
  });
  const [first, ...rest] = reply.events;
  if (first !== undefined) write(first);
  if (reply.pauseAfterFirst) {
    request.resumed = await Promise.race([
      reply.pauseAfterFirst.then(() => 'released' as const),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 2000)),
    ]);
  }
  for (const event of rest) {
    if (res.destroyed) return;
    write(event);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (reply.broken) res.socket?.destroy();
  else if (!reply.hold) res.end();
}

export const MEMORY = 'Remembered: the deploy script needs the staging flag.';

/** A stand-in for the memory: up front always, at the moment only when the latest user message mentions a deploy. */
export function fakeInject(request: InjectRequest): Injection | null {
  if (request.placement !== 'moment')
    return { text: MEMORY, lessonHashes: ['h1'], reason: request.placement };
  const latest = request.messages.findLast((message) => message.role === 'user');
  return latest?.text.includes('deploy') ? { text: MEMORY, lessonHashes: ['h1'], reason: 'moment' } : null;
}

export interface Proxy {
  url: string;
  records: Exchange[];
  injected: InjectRequest[];
  /** Resolves once `count` exchanges were recorded (recording runs after the response). */
  recorded(count?: number): Promise<Exchange[]>;
}

/** The proxy app, served on its own port, in front of the given upstreams. */
export async function startProxy(options: {
  openai: string;
  anthropic?: string;
  placement?: Placement;
  inject?: ProxyDeps['inject'];
  remember?: ProxyDeps['remember'];
  record?: ProxyDeps['record'];
  onError?: ProxyDeps['onError'];
}): Promise<Proxy> {
  const records: Exchange[] = [];
  const injected: InjectRequest[] = [];
  const inject = options.inject ?? fakeInject;
  const app = createProxyApp({
    upstreams: { openai: options.openai, anthropic: options.anthropic ?? options.openai },
    placement: options.placement ?? 'moment',
    inject(request) {
      injected.push(request);
      return inject(request);
    },
    record(exchange) {
      records.push(exchange);
      options.record?.(exchange);
    },
    ...(options.remember ? { remember: options.remember } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return {
    url: await listen(createAdaptorServer({ fetch: app.fetch }) as Server),
    records,
    injected,
    async recorded(count = 1) {
      const deadline = Date.now() + 3000;
      while (records.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      return records;
    },
  };
}

/** The JSON body the upstream received. */
export const bodyOf = (request: Received | undefined): Record<string, unknown> =>
  JSON.parse(request?.body.toString('utf8') ?? 'null');
