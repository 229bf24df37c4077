import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { guard, JSON_TYPES, jsonDepth, LOOPBACK_NAMES } from '../../src/core/index.ts';

function app(options: { foreignReads?: boolean; anyType?: boolean } = {}): Hono {
  const served = new Hono();
  served.use(
    '*',
    guard({
      hosts: LOOPBACK_NAMES,
      ...(options.anyType ? {} : { bodyTypes: JSON_TYPES }),
      maxBodyBytes: 64,
      maxJsonDepth: 3,
      ...(options.foreignReads ? { foreignReads: true } : {}),
    }),
  );
  served.post('/echo', async (c) => c.json(await c.req.json()));
  served.get('/read', (c) => c.text('ok'));
  return served;
}

const local = { host: '127.0.0.1:7777', 'content-type': 'application/json' };
const post = (
  served: Hono,
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = local,
) => served.request('/echo', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

describe('jsonDepth', () => {
  it('counts nesting outside strings, escapes included', () => {
    expect(jsonDepth(Buffer.from('{"a":[1,{"b":2}]}'), 10)).toBe(3);
    expect(jsonDepth(Buffer.from('{"a":"[[[{{{\\"]]]"}'), 10)).toBe(1);
    expect(jsonDepth(Buffer.from('1'), 10)).toBe(0);
    expect(jsonDepth(Buffer.from('['.repeat(1_000_000)), 64)).toBe(65);
  });
});

describe('the guard every listener answers through', () => {
  it('hands the route the body it read, whole', async () => {
    const answer = await post(app(), '{"a":[1,{"b":2}]}');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ a: [1, { b: 2 }] });
  });

  it.each([
    ['another host', { ...local, host: 'evil.example' }, '{}', 403, 'host_not_allowed'],
    [
      'a local name on a foreign port host',
      { ...local, host: 'localhost.evil.example:7777' },
      '{}',
      403,
      'host_not_allowed',
    ],
    ['a foreign origin', { ...local, origin: 'https://evil.example' }, '{}', 403, 'origin_not_allowed'],
    ['the null origin', { ...local, origin: 'null' }, '{}', 403, 'origin_not_allowed'],
    [
      'text/plain',
      { ...local, 'content-type': 'text/plain;charset=UTF-8' },
      '{}',
      415,
      'unsupported_media_type',
    ],
    ['no type', { host: '127.0.0.1' }, '{}', 415, 'unsupported_media_type'],
    ['a body over the limit', local, `{"a":"${'x'.repeat(80)}"}`, 413, 'too_large'],
    ['JSON deeper than the limit', local, '[[[[1]]]]', 400, 'too_deep'],
  ])('refuses %s with a reason', async (_, headers, body, status, code) => {
    const answer = await post(app(), body, headers as Record<string, string>);
    expect(answer.status).toBe(status);
    const refused = (await answer.json()) as { error: string; reason: string };
    expect(refused.error).toBe(code);
    expect(refused.reason).not.toBe('');
  });

  it('counts a body sent without a length as it comes', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(16).fill(32));
        controller.close();
      },
    });
    expect((await post(app(), stream)).status).toBe(413);
  });

  it('lets a page elsewhere read only where reads are public, and never write', async () => {
    const page = { host: '127.0.0.1', origin: 'https://elsewhere.example' };
    expect((await app().request('/read', { headers: page })).status).toBe(403);
    const open = app({ foreignReads: true });
    expect((await open.request('/read', { headers: page })).status).toBe(200);
    expect((await post(open, '{}', { ...local, ...page })).status).toBe(403);
  });

  it('takes any body type where none is named, and still bounds its depth when it is JSON', async () => {
    const any = app({ anyType: true });
    const plain = await any.request('/echo', {
      method: 'POST',
      headers: { host: '127.0.0.1', 'content-type': 'text/plain' },
      body: '{"a":1}',
    });
    expect(plain.status).toBe(200);
    expect((await post(any, '[[[[1]]]]')).status).toBe(400);
  });
});
