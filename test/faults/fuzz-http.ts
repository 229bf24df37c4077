/**
 * The HTTP surfaces on bad requests: the commons server and the model proxy (in front of a local upstream
 * that speaks the real wire formats). No request may make them fail inside; every refusal names its reason.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createCommonsApp, issueToken, openCommonsStore } from '../../src/commons/index.ts';
import { generateIdentity, type Identity, signRecord } from '../../src/protocol/index.ts';
import { createProxyApp, type Exchange } from '../../src/proxy/index.ts';
import {
  anthropicJson,
  anthropicStream,
  chatJson,
  chatStream,
  responsesJson,
  responsesStream,
} from '../proxy/wire.ts';
import {
  badText,
  checkProperty,
  damagedText,
  damagedValue,
  type FuzzOptions,
  type FuzzOutcome,
  withGarbage,
} from './fuzz-kit.ts';

const NOW = '2026-03-10T00:00:00.000Z';

/** A memory's valid file: lessons and a confirmation, all signed by `identity`. */
function recordFile(identity: Identity): string[] {
  const texts = [
    'The build fails when the cache directory is missing.',
    'The integration tests time out when the database container starts cold.',
    'The release script stops at the changelog step on a dirty tree.',
  ];
  const lessons = texts.map((text, n) =>
    signRecord(identity, {
      kind: 'error',
      text,
      seen: n + 1,
      strength: 1,
      updated: `2026-03-0${n + 1}T10:00:00.000Z`,
    }),
  );
  const hash = (JSON.parse(lessons[0]!) as { hash: string }).hash;
  return [...lessons, signRecord(identity, { confirm: hash, updated: '2026-03-05T10:00:00.000Z' })];
}

/** What is wrong with an HTTP refusal, or null: it must be JSON naming the error and why. */
async function refusalProblem(response: Response, method: string): Promise<string | null> {
  if (response.status >= 500) return `answered ${response.status}: ${(await response.text()).slice(0, 200)}`;
  if (response.status < 400 || method === 'HEAD') {
    await response.arrayBuffer();
    return null;
  }
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; reason?: unknown };
    const why = body.message ?? body.reason ?? (body.error as { message?: unknown } | undefined)?.message;
    if (typeof body.error !== 'string' && typeof body.error !== 'object')
      return `a ${response.status} without an error`;
    return typeof why === 'string' && why.trim() ? null : `a ${response.status} without its reason`;
  } catch {
    return `a ${response.status} that is not JSON: ${text.slice(0, 100)}`;
  }
}

const methods = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

async function commonsRequests(options: FuzzOptions): Promise<FuzzOutcome> {
  const store = await openCommonsStore('sqlite::memory:');
  const errors: unknown[] = [];
  const alice = generateIdentity();
  const app = createCommonsApp({ store, now: () => NOW, onError: (error) => errors.push(error) });
  const token = (await issueToken(store, { origin: alice.origin, now: NOW })).token;
  const valid = recordFile(alice);
  const file = `${valid.join('\n')}\n`;
  try {
    return await checkProperty(
      'commons requests',
      fc.record({
        method: fc.constantFrom(...methods),
        path: fc.oneof(
          fc.constantFrom(
            '/commons/index',
            '/commons/lessons',
            `/commons/${alice.origin}.jsonl`,
            '/commons/0.jsonl',
            '/',
          ),
          fc.webPath(),
        ),
        query: fc.oneof(
          fc.constant(''),
          fc
            .tuple(fc.constantFrom('since', 'limit', 'cursor', 'state'), fc.string())
            .map(([key, value]) => `?${key}=${encodeURIComponent(value)}`),
        ),
        auth: fc.oneof(
          fc.constant(`Bearer ${token}`),
          fc.constant(undefined),
          fc.string().map((s) => `Bearer ${s}`),
        ),
        host: fc.constantFrom(undefined, 'localhost', 'evil.example', '127.0.0.1:9999'),
        origin: fc.constantFrom(undefined, 'https://evil.example'),
        body: fc.oneof(
          fc.constant(file),
          damagedText([file]),
          badText(valid),
          fc.uint8Array({ maxLength: 600 }),
        ),
      }),
      async (request) => {
        const headers: Record<string, string> = {};
        if (request.auth !== undefined) headers['authorization'] = request.auth;
        if (request.host !== undefined) headers['host'] = request.host;
        if (request.origin !== undefined) headers['origin'] = request.origin;
        const hasBody = !['GET', 'HEAD'].includes(request.method);
        const response = await app.request(`${request.path}${request.query}`, {
          method: request.method,
          headers,
          ...(hasBody ? { body: request.body } : {}),
        });
        const problem = await refusalProblem(response, request.method);
        if (problem) return problem;
        return errors.length ? `failed inside: ${String(errors.splice(0)[0])}` : null;
      },
      options,
    );
  } finally {
    await store.close();
  }
}

/** A file with garbage lines put in is refused whole, naming exactly the garbage lines; alone, the valid lines are taken. */
async function commonsGarbage(options: FuzzOptions): Promise<FuzzOutcome> {
  const alice = generateIdentity();
  const valid = recordFile(alice);
  return checkProperty(
    'commons file with garbage lines',
    withGarbage(valid, 4),
    async ({ text, bad }) => {
      const store = await openCommonsStore('sqlite::memory:');
      try {
        const app = createCommonsApp({ store, now: () => NOW, rate: { requests: 1e9, windowMs: 60_000 } });
        const token = (await issueToken(store, { origin: alice.origin, now: NOW })).token;
        const put = (body: string) =>
          app.request(`/commons/${alice.origin}.jsonl`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}` },
            body,
          });
        const refused = await put(text);
        const answer = (await refused.json()) as { refused?: { line: number; reason: string }[] };
        if (refused.status !== 422) return `a file with garbage answered ${refused.status}`;
        const named = (answer.refused ?? []).map((entry) => entry.line);
        if (JSON.stringify(named) !== JSON.stringify(bad)) return `refused lines ${named} instead of ${bad}`;
        if ((answer.refused ?? []).some((entry) => !entry.reason?.trim()))
          return 'a refused line without its reason';
        const taken = await put(`${valid.join('\n')}\n`);
        return taken.status === 200 ? null : `the valid lines alone answered ${taken.status}`;
      } finally {
        await store.close();
      }
    },
    { ...options, keepsValid: true },
  );
}

interface Upstream {
  url: string;
  received: Buffer[];
  close(): Promise<void>;
}

/** A model server on 127.0.0.1 answering each API in its real wire format, streaming when asked. */
async function startUpstream(): Promise<Upstream> {
  const received: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push(body);
      let stream = false;
      try {
        stream = (JSON.parse(body.toString('utf8')) as { stream?: unknown })?.stream === true;
      } catch {
        // not JSON: a plain answer
      }
      const path = (req.url ?? '').split('?')[0];
      const answers: Record<string, [() => string[], () => unknown]> = {
        '/v1/chat/completions': [chatStream, chatJson],
        '/v1/responses': [responsesStream, responsesJson],
        '/v1/messages': [anthropicStream, anthropicJson],
      };
      const answer = answers[path ?? ''];
      if (answer && stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of answer[0]()) res.write(event);
        res.end();
        return;
      }
      const json = JSON.stringify(answer ? answer[1]() : { path, length: body.length });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const requests = [
  {
    model: 'gpt-5',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'deploy it' },
    ],
  },
  { model: 'gpt-5', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
  { model: 'gpt-5', input: [{ role: 'user', content: 'run the tests' }], instructions: 'x', stream: true },
  { model: 'gpt-5', input: 'hello' },
  {
    model: 'claude',
    max_tokens: 10,
    system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'no, use pnpm' }] }],
    stream: true,
  },
  { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
];

async function proxyRequests(options: FuzzOptions): Promise<FuzzOutcome> {
  const upstream = await startUpstream();
  const errors: string[] = [];
  const records: Exchange[] = [];
  let injecting = false;
  const app = createProxyApp({
    upstreams: { openai: upstream.url, anthropic: upstream.url },
    placement: 'moment',
    inject: () =>
      injecting
        ? { text: 'Remembered: the deploy needs the staging flag.', lessonHashes: ['h'], reason: 'moment' }
        : null,
    record: (exchange) => records.push(exchange),
    remember: async () => ({ status: 202, body: { stored: true } }),
    onError: (where, error) => errors.push(`${where}: ${(error as Error)?.message ?? String(error)}`),
  });
  try {
    return await checkProperty(
      'proxy requests',
      fc.record({
        path: fc.constantFrom(
          '/v1/chat/completions',
          '/v1/responses',
          '/v1/messages',
          '/memory/remember',
          '/v1/models',
        ),
        inject: fc.boolean(),
        off: fc.boolean(),
        body: fc.oneof(
          damagedValue(requests).map((value) => JSON.stringify(value) ?? ''),
          damagedValue(requests).map((value) => JSON.stringify(value) ?? ''),
          badText(requests.map((request) => JSON.stringify(request))),
          fc.anything().map((value) => {
            try {
              return JSON.stringify(value) ?? '';
            } catch {
              return '';
            }
          }),
        ),
      }),
      async (request) => {
        injecting = request.inject;
        const before = upstream.received.length;
        const response = await app.request(request.path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(request.off ? { 'x-remem': 'off' } : {}) },
          body: request.body,
        });
        const text = await response.text();
        if (response.status >= 500) return `answered ${response.status}: ${text.slice(0, 200)}`;
        if (response.status >= 400 && !/"message":"[^"]/.test(text))
          return `a ${response.status} without its reason`;
        // Recording runs after the last byte.
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (errors.length) return `failed inside: ${errors.splice(0).join('; ')}`;
        if (request.path === '/memory/remember') return null;
        const sent = upstream.received[before];
        if (sent === undefined) return 'the request never reached the upstream';
        let isObject = false;
        try {
          const value: unknown = JSON.parse(request.body);
          isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
        } catch {
          isObject = false;
        }
        // What the proxy does not change goes out as the very bytes that came in.
        if ((!isObject || !request.inject || request.off) && !sent.equals(Buffer.from(request.body)))
          return 'the upstream received other bytes than were sent';
        return null;
      },
      options,
    );
  } finally {
    await upstream.close();
  }
}

/** The commons and the proxy on bad requests. */
export async function fuzzHttp(options: FuzzOptions): Promise<FuzzOutcome[]> {
  return [await commonsRequests(options), await commonsGarbage(options), await proxyRequests(options)];
}
