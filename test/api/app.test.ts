import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type ApiDeps, BadHostError, createApiApp, describeReach, planReach } from '../../src/api/index.ts';
import { resolveConfig } from '../../src/core/index.ts';
import { openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();
const TOKEN = 'a'.repeat(64);

function app(extra: Partial<ApiDeps> = {}) {
  const home = tempDir();
  const config = resolveConfig({ HOME: home, REMEM_HOME: home });
  const store = openStore(home);
  return {
    home,
    app: createApiApp({
      store,
      config,
      token: TOKEN,
      now: () => '2026-11-02T09:00:00.000Z',
      maxBodyBytes: 4096,
      ...extra,
    }),
  };
}

const auth = { authorization: `Bearer ${TOKEN}`, host: '127.0.0.1:7777' };

describe('the local REST API', () => {
  it('answers /health without a token and everything else only with it', async () => {
    const { app: api } = app();
    expect((await api.request('/health', { headers: { host: '127.0.0.1' } })).status).toBe(200);
    const refused = await api.request('/memory/lessons', { headers: { host: '127.0.0.1' } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'unauthorized' });
    const wrong = await api.request('/memory/lessons', {
      headers: { ...auth, authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    expect((await api.request('/memory/lessons', { headers: auth })).status).toBe(200);
  });

  it('refuses other host names and other web origins (DNS rebinding)', async () => {
    const { app: api } = app();
    expect(
      (await api.request('/memory/lessons', { headers: { ...auth, host: 'evil.example:7777' } })).status,
    ).toBe(403);
    const cross = await api.request('/memory/lessons', {
      headers: { ...auth, origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
    expect(
      (await api.request('/memory/lessons', { headers: { ...auth, origin: 'http://127.0.0.1:7777' } }))
        .status,
    ).toBe(200);
  });

  it('remembers a valid event, refuses an invalid one with its reason, and limits bodies', async () => {
    const { app: api } = app();
    const post = (body: string) =>
      api.request('/memory/remember', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body,
      });
    const stored = await post(JSON.stringify({ kind: 'correction', said: 'no, use the staging db' }));
    expect(stored.status).toBe(201);
    const refused = await post(JSON.stringify({ kind: 'correction' }));
    expect(refused.status).toBe(422);
    expect((await refused.json()) as { reason: string }).toMatchObject({ error: 'refused' });
    expect((await post('not json')).status).toBe(400);
    expect((await post(JSON.stringify({ kind: 'note', text: 'x'.repeat(10_000) }))).status).toBe(413);
  });

  it('checks recall parameters and answers HTTP hooks like the command hook', async () => {
    const { app: api } = app();
    expect((await api.request('/memory/recall', { headers: auth })).status).toBe(400);
    expect((await api.request('/memory/recall?q=deploy&k=0', { headers: auth })).status).toBe(400);
    expect((await api.request('/memory/recall?q=deploy&k=3', { headers: auth })).status).toBe(200);
    const hook = await api.request('/hooks/prime', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        session_id: 's',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'hello',
        cwd: '/tmp',
      }),
    });
    expect(hook.status).toBe(200);
    expect(await hook.json()).toEqual({});
    expect((await api.request('/nowhere', { headers: auth })).status).toBe(404);
  });
});

describe('reach beyond this machine', () => {
  const records = () => {
    const routes = new Hono();
    routes.get('/gossip/index', (c) => c.json({ entries: [] }));
    return routes;
  };

  it('serves published routes to any host name and origin, and nothing else without its name and token', async () => {
    const { app: api } = app({ hosts: ['127.0.0.1', 'memory-a.example'], published: records() });
    const far = { host: 'elsewhere.example:7777', origin: 'https://elsewhere.example' };
    expect((await api.request('/gossip/index', { headers: far })).status).toBe(200);
    // Only what the published app routes: another method on the same path meets the Host check.
    expect((await api.request('/gossip/index', { method: 'POST', headers: far })).status).toBe(403);
    expect((await api.request('/health', { headers: far })).status).toBe(403);
    expect((await api.request('/memory/lessons', { headers: { ...auth, ...far } })).status).toBe(403);
    const named = { ...auth, host: 'Memory-A.example:7777' };
    expect((await api.request('/memory/lessons', { headers: named })).status).toBe(200);
    expect(
      (await api.request('/memory/lessons', { headers: { ...named, authorization: 'Bearer nope' } })).status,
    ).toBe(401);
    expect((await api.request('/memory/lessons', { headers: { ...named, origin: far.origin } })).status).toBe(
      403,
    );
  });

  it('keeps open routes behind the Host check', async () => {
    const { app: api } = app({ open: records() });
    expect((await api.request('/gossip/index', { headers: { host: '127.0.0.1:7777' } })).status).toBe(200);
    expect((await api.request('/gossip/index', { headers: { host: 'rebound.example' } })).status).toBe(403);
  });

  it('works out the names and says who reaches what', () => {
    const local = planReach({ host: '127.0.0.2' });
    expect(local).toEqual({
      listen: '127.0.0.2',
      beyondLoopback: false,
      hosts: ['127.0.0.1', 'localhost', '[::1]', '127.0.0.2'],
    });
    expect(describeReach(local)).toEqual([expect.stringMatching(/^from this machine only/)]);
    const every = planReach({ host: '0.0.0.0', allowHosts: ['Box.LAN', '[fe80::1]', '192.168.1.5'] });
    expect(every).toEqual({
      listen: '0.0.0.0',
      beyondLoopback: true,
      hosts: ['127.0.0.1', 'localhost', '[::1]', 'box.lan', '[fe80::1]', '192.168.1.5'],
    });
    expect(describeReach(every)).toEqual([
      expect.stringMatching(/^from any machine that can connect, by any name: GET \/gossip\/index/),
      expect.stringContaining('by 127.0.0.1, localhost, [::1], box.lan, [fe80::1], 192.168.1.5 only'),
    ]);
    expect(planReach({ host: '::' }).beyondLoopback).toBe(true);
    expect(planReach({ host: '[::1]' })).toMatchObject({ listen: '::1', beyondLoopback: false });
    expect(planReach({ host: '10.0.0.7' }).hosts).toContain('10.0.0.7');
    for (const bad of ['http://box.lan', 'box.lan:7777', '*.lan', '', 'a b']) {
      expect(() => planReach({ host: '0.0.0.0', allowHosts: [bad] }), bad).toThrow(
        new BadHostError('allowed', bad),
      );
    }
    expect(() => planReach({ host: 'box.lan/x' })).toThrow(/^the address to listen on must be a host name/);
  });
});
