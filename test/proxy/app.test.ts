import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createProxyApp } from '../../src/proxy/index.ts';
import { bodyOf, fakeInject, MEMORY, type Received, startProxy, startUpstream } from './servers.ts';
import { chatStream, TEXT_PIECES } from './wire.ts';

/** The transport at the HTTP level: raw requests, so every byte and header can be compared. */

const chatRequest = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content }], ...extra });

const authHeaders = {
  authorization: 'Bearer sk-secret',
  'x-api-key': 'sk-ant-secret',
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'prompt-caching-2024-07-31',
  'openai-organization': 'org-1',
  'openai-project': 'proj-1',
  'content-type': 'application/json',
  'user-agent': 'test-client/1',
  'x-custom': 'kept',
};

async function readAll(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

/** Headers as the upstream saw them, minus the one the proxy sets on purpose. */
function comparable(request: Received | undefined): Record<string, unknown> {
  const { 'accept-encoding': _, ...rest } = request?.headers ?? {};
  return rest;
}

describe('the proxy in front of an upstream', () => {
  it.each([
    ['/v1/chat/completions', chatRequest('hi')],
    ['/v1/chat/completions', chatRequest('hi', { stream: true })],
    ['/v1/responses', JSON.stringify({ model: 'gpt-5', input: 'hi', stream: true })],
    [
      '/v1/messages?beta=true',
      JSON.stringify({ model: 'claude', max_tokens: 9, messages: [], stream: true }),
    ],
  ])('is invisible when the memory has nothing: %s', async (path, body) => {
    const upstream = await startUpstream();
    const proxy = await startProxy({ openai: upstream.url });

    const direct = await fetch(`${upstream.url}${path}`, { method: 'POST', headers: authHeaders, body });
    const directBytes = await readAll(direct);
    const proxied = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: authHeaders, body });
    const proxiedBytes = await readAll(proxied);

    const [viaDirect, viaProxy] = upstream.received;
    expect(viaProxy?.url).toBe(path);
    expect(viaProxy?.body.equals(Buffer.from(body))).toBe(true);
    expect(comparable(viaProxy)).toEqual(comparable(viaDirect));
    expect(proxiedBytes.equals(Buffer.concat(viaProxy?.sent ?? []))).toBe(true);
    expect(proxiedBytes.equals(directBytes)).toBe(true);
    expect(proxied.status).toBe(direct.status);
    expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
  });

  it('changes nothing but the memory when it injects', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({ openai: upstream.url });
    const body = chatRequest('please deploy', {
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
    await readAll(
      await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: authHeaders, body }),
    );

    const seen = upstream.received[0];
    const expected = JSON.parse(body);
    expected.messages.push({ role: 'system', content: MEMORY });
    expect(bodyOf(seen)).toEqual(expected);
    expect(seen?.headers['content-length']).toBe(String(seen?.body.length));
    expect(seen?.headers.authorization).toBe('Bearer sk-secret');
    expect(seen?.headers['x-api-key']).toBe('sk-ant-secret');
    expect(seen?.headers['accept-encoding']).toBe('identity');
  });

  it('passes an upstream error status on with its body and headers, and records nothing', async () => {
    const error = JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } });
    const upstream = await startUpstream(() => ({
      status: 429,
      body: error,
      headers: { 'retry-after': '7' },
    }));
    const proxy = await startProxy({ openai: upstream.url });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatRequest('hi'),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.text()).toBe(error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(proxy.records).toHaveLength(0);
  });

  it('answers 502 with a JSON reason when the upstream cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const proxy = await startProxy({ openai: `http://127.0.0.1:${port}` });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: authHeaders,
      body: chatRequest('hi'),
    });
    expect(response.status).toBe(502);
    const reason = await response.json();
    expect(reason).toEqual({
      type: 'error',
      error: { type: 'upstream_unreachable', message: `cannot reach http://127.0.0.1:${port}: ECONNREFUSED` },
    });
    expect(JSON.stringify(reason)).not.toContain('secret');
  });

  it('passes a body that is not JSON untouched, without asking the memory', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({ openai: upstream.url });
    const body = '{"model": "gpt-5", "messages": [ oops';
    const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body });
    expect(response.status).toBe(200);
    expect(upstream.received[0]?.body.toString()).toBe(body);
    expect(proxy.injected).toHaveLength(0);
  });

  it('bypasses everything with x-remem: off', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({ openai: upstream.url, placement: 'first' });
    const body = chatRequest('please deploy', { stream: true });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...authHeaders, 'x-remem': 'off' },
      body,
    });
    await readAll(response);
    const seen = upstream.received[0];
    expect(seen?.body.toString()).toBe(body);
    expect(seen?.headers['x-remem']).toBeUndefined();
    expect(proxy.injected).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(proxy.records).toHaveLength(0);
  });

  it('passes a 20 MB request', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({ openai: upstream.url });
    const big = 'x'.repeat(20 * 1024 * 1024);
    const body = chatRequest(`please deploy ${big}`);
    const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body });
    expect(response.status).toBe(200);
    const seen = bodyOf(upstream.received[0]) as { messages: Array<{ content: string }> };
    expect(seen.messages[0]?.content).toBe(`please deploy ${big}`);
    expect(seen.messages[1]?.content).toBe(MEMORY);
  });

  it('passes unknown paths to the upstream the path names, with method and query', async () => {
    const openai = await startUpstream();
    const anthropic = await startUpstream();
    const proxy = await startProxy({ openai: openai.url, anthropic: anthropic.url });

    const models = await fetch(`${proxy.url}/v1/models?limit=2`, { headers: authHeaders });
    expect(await models.json()).toMatchObject({ path: '/v1/models?limit=2' });
    const count = await fetch(`${proxy.url}/v1/messages/count_tokens?beta=true`, {
      method: 'POST',
      headers: authHeaders,
      body: '{"model":"claude","messages":[]}',
    });
    expect(count.status).toBe(200);

    expect(openai.received.map((seen) => [seen.method, seen.url])).toEqual([['GET', '/v1/models?limit=2']]);
    expect(anthropic.received.map((seen) => [seen.method, seen.url])).toEqual([
      ['POST', '/v1/messages/count_tokens?beta=true'],
    ]);
    expect(anthropic.received[0]?.body.toString()).toBe('{"model":"claude","messages":[]}');
    expect(proxy.injected).toHaveLength(0);
  });

  it('sends each chunk on as it arrives, before the upstream sends the next', async () => {
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const upstream = await startUpstream(() => ({ events: chatStream(), pauseAfterFirst: released }));
    const proxy = await startProxy({ openai: upstream.url });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatRequest('hi', { stream: true }),
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe(chatStream()[0]);
    release();
    while (!(await reader.read()).done) {}
    expect(upstream.received[0]?.resumed).toBe('released');
    expect((await proxy.recorded())[0]).toMatchObject({ reply: TEXT_PIECES.join(''), partial: false });
  });

  it('records a partial reply when the client goes away mid-stream, and lets go of the upstream', async () => {
    const events = chatStream().slice(0, 3);
    const upstream = await startUpstream(() => ({ events, hold: true }));
    const proxy = await startProxy({ openai: upstream.url });
    const abort = new AbortController();
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatRequest('hi', { stream: true }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    let got = '';
    while (got.split('\n\n').length <= events.length)
      got += Buffer.from((await reader.read()).value!).toString();
    abort.abort();

    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({ reply: TEXT_PIECES.join(''), partial: true });
    const deadline = Date.now() + 2000;
    while (!upstream.received[0]?.closedEarly && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    expect(upstream.received[0]?.closedEarly).toBe(true);
  });

  it('records a partial reply when the upstream breaks the stream', async () => {
    const upstream = await startUpstream(() => ({ events: chatStream().slice(0, 3), broken: true }));
    const proxy = await startProxy({ openai: upstream.url });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatRequest('hi', { stream: true }),
    });
    await expect(readAll(response)).rejects.toThrow();
    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({ reply: TEXT_PIECES.join(''), partial: true });
  });

  it('passes a malformed stream line on and counts it in the recording', async () => {
    const [first, ...rest] = chatStream();
    const events = [first!, 'this line is not SSE\n\n', 'data: {not json}\n\n', ...rest];
    const upstream = await startUpstream(() => ({ events }));
    const proxy = await startProxy({ openai: upstream.url });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatRequest('hi', { stream: true }),
    });
    expect((await readAll(response)).toString()).toBe(events.join(''));
    const [exchange] = await proxy.recorded();
    expect(exchange).toMatchObject({ reply: TEXT_PIECES.join(''), malformed: 2, partial: false });
  });

  it('keeps one session across the turns of a conversation, or takes the client’s', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({ openai: upstream.url });
    const turn = (messages: unknown[], headers: Record<string, string> = {}) =>
      fetch(`${proxy.url}/v1/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'gpt-5', messages }),
      }).then(readAll);
    const first = { role: 'user', content: 'hello there' };
    await turn([first]);
    await turn([first, { role: 'assistant', content: 'hi' }, { role: 'user', content: 'more' }]);
    await turn([{ role: 'user', content: 'another conversation' }]);
    await turn([first], { 'x-remem-session': 'chosen-by-client' });
    const sessions = (await proxy.recorded(4)).map((exchange) => exchange.session);
    expect(sessions[0]).toBe(sessions[1]);
    expect(sessions[2]).not.toBe(sessions[0]);
    expect(sessions[3]).toBe('chosen-by-client');
    expect(upstream.received[3]?.headers['x-remem-session']).toBeUndefined();
  });

  it('goes on without the memory when inject fails', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({
      openai: upstream.url,
      inject: () => {
        throw new Error('memory unavailable');
      },
    });
    const body = chatRequest('please deploy');
    const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body });
    expect(response.status).toBe(200);
    expect(upstream.received[0]?.body.toString()).toBe(body);
  });

  it('reports a failing record without touching the answer', async () => {
    const upstream = await startUpstream();
    const failures: string[] = [];
    const proxy = await startProxy({
      openai: upstream.url,
      inject: async () => null,
      record: () => {
        throw new Error('disk full');
      },
      onError: (where, error) => failures.push(`${where}: ${(error as Error).message}`),
    });
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatRequest('hi', { stream: true }),
    });
    expect((await readAll(response)).toString()).toBe(chatStream().join(''));
    await proxy.recorded();
    expect(failures).toEqual(['record: disk full']);
  });

  it('hands the memory the normalised history and the configured placement', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy({ openai: upstream.url, placement: 'last', inject: fakeInject });
    await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'claude',
        max_tokens: 9,
        system: [{ type: 'text', text: 'sys' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      }),
    }).then(readAll);
    expect(proxy.injected[0]).toMatchObject({
      api: 'anthropic',
      model: 'claude',
      placement: 'last',
      messages: [
        { role: 'system', text: 'sys' },
        { role: 'user', text: 'hi' },
      ],
    });
  });
});

const TOKEN = 'f'.repeat(64);
const memoryHeaders = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('POST /memory/remember', () => {
  const kept: unknown[] = [];
  // In process, no port: the route never reaches an upstream.
  const app = createProxyApp({
    upstreams: { openai: 'http://127.0.0.1:9', anthropic: 'http://127.0.0.1:9' },
    placement: 'moment',
    inject: () => null,
    record: () => {},
    remember: async (event) => {
      kept.push(event);
      return { status: 201, body: { stored: true } };
    },
    token: TOKEN,
  });
  const post = (body: string, proxy = app) =>
    proxy.request('/memory/remember', { method: 'POST', headers: memoryHeaders, body });

  it('hands a valid event to the memory, unknown fields and all, and answers with its answer', async () => {
    const event = { kind: 'correction', said: 'No, use the staging flag.', agent_did: 'Deployed.', extra: 1 };
    const response = await post(JSON.stringify(event));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ stored: true });
    expect(kept).toEqual([event]);
  });

  it.each([
    ['not JSON', 'kind=note', /not JSON/],
    ['no kind', '{"text":"x"}', /missing kind/],
    ['a correction without the words', '{"kind":"correction"}', /needs said/],
  ])('refuses %s with 400', async (_, body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { message: string } };
    expect(answer.error.message).toMatch(message);
  });

  it('answers 404 when the proxy was built without a memory to keep events', async () => {
    const bare = createProxyApp({
      upstreams: { openai: 'http://127.0.0.1:9', anthropic: 'http://127.0.0.1:9' },
      placement: 'moment',
      inject: () => null,
      record: () => {},
      token: TOKEN,
    });
    const response = await post('{"kind":"note","text":"x"}', bare);
    expect(response.status).toBe(404);
  });
});
