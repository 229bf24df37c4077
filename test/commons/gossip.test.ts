import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Origin } from '../../src/protocol/index.ts';
import {
  createGossipRoutes,
  createMemoryHolder,
  type GossipHolder,
  pullFromPeers,
} from '../../src/transport/index.ts';
import { alice, bob, carol, confirm, day, hashOf, lesson, parsed, revoke } from './helpers.ts';

const now = day(10);

function holding(lines: readonly string[]): GossipHolder {
  const holder = createMemoryHolder();
  for (const line of lines) {
    const record = parsed(line);
    holder.accept(record.record.origin, [record]);
  }
  return holder;
}

/** Peers on made-up addresses, each a gossip app answered in process. */
function network(peers: Record<string, Hono>) {
  const requests: string[] = [];
  const fetchLike = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    requests.push(url.href);
    const app = peers[url.origin];
    if (app === undefined) throw new TypeError(`fetch failed: ${url.origin} is down`);
    return app.request(url.href, init);
  }) as typeof fetch;
  return { fetch: fetchLike, requests };
}

describe('the in-memory holder', () => {
  it('keeps the newest record per lesson and kind for each origin, and never loses one to an older copy', () => {
    const holder = createMemoryHolder();
    const first = lesson(alice, 0, day(1));
    const newer = lesson(alice, 0, day(3));
    expect(holder.accept(alice.origin, [parsed(first)]).accepted).toBe(1);
    expect(holder.accept(alice.origin, [parsed(first)]).accepted).toBe(0);
    expect(holder.accept(alice.origin, [parsed(newer)]).accepted).toBe(1);
    expect(holder.accept(alice.origin, [parsed(first)]).accepted).toBe(0);
    const revocation = revoke(alice, hashOf(first), day(4));
    holder.accept(alice.origin, [parsed(revocation)]);
    expect([...holder.lines(alice.origin)].sort()).toEqual([newer, revocation].sort());
    expect(holder.known().get(alice.origin)).toBe(day(4));
  });
});

describe('the gossip routes', () => {
  it('serve an index and each origin’s lines exactly as received', async () => {
    const lines = [
      lesson(alice, 0, day(1)),
      lesson(alice, 1, day(2)),
      confirm(bob, hashOf(lesson(alice, 0, day(1))), day(3)),
    ];
    const app = createGossipRoutes({ holder: holding(lines), peers: () => ['http://peer.example:4000'] });
    const index = (await (await app.request('/gossip/index')).json()) as unknown;
    expect(index).toEqual({
      entries: [
        { origin: alice.origin, updated: day(2), records: 2 },
        { origin: bob.origin, updated: day(3), records: 1 },
      ].sort((a, b) => (a.origin < b.origin ? -1 : 1)),
      peers: ['http://peer.example:4000'],
    });
    const since = (await (await app.request(`/gossip/index?since=${day(2)}`)).json()) as {
      entries: unknown[];
    };
    expect(since.entries).toEqual([{ origin: bob.origin, updated: day(3), records: 1 }]);
    const file = await app.request(`/gossip/${alice.origin}.jsonl`);
    expect((await file.text()).split('\n').filter(Boolean).sort()).toEqual(lines.slice(0, 2).sort());
    expect((await app.request(`/gossip/${carol.origin}.jsonl`)).status).toBe(404);
    expect((await app.request('/gossip/index?since=soon')).status).toBe(400);
  });
});

describe('pullFromPeers', () => {
  const published = lesson(alice, 0, day(1));
  const confirmation = confirm(bob, hashOf(published), day(2));

  it('pulls what is newer, through a relay, byte for byte, and nothing when nothing is newer', async () => {
    const a = holding([published, confirmation]);
    const b = createMemoryHolder();
    const c = createMemoryHolder();
    const net = network({
      'http://a.test': createGossipRoutes({ holder: a }),
      'http://b.test': createGossipRoutes({ holder: b }),
    });
    const first = await pullFromPeers(['http://a.test'], b, { fetch: net.fetch, now });
    expect(first.peers).toEqual([{ peer: 'http://a.test', ok: true, origins: 2, accepted: 2, refused: [] }]);
    const relayed = await pullFromPeers(['http://b.test/'], c, { fetch: net.fetch, now });
    expect(relayed.peers[0]).toMatchObject({ ok: true, accepted: 2 });
    expect(c.lines(alice.origin)).toEqual([published]);
    expect(c.lines(bob.origin)).toEqual([confirmation]);

    net.requests.length = 0;
    const again = await pullFromPeers(['http://a.test'], c, { fetch: net.fetch, now });
    expect(again.peers[0]).toMatchObject({ origins: 0, accepted: 0 });
    expect(net.requests).toEqual(['http://a.test/gossip/index']);
  });

  it('takes from a relay only what verifies: altered, misattributed and future records are refused', async () => {
    const honest = lesson(alice, 1, day(3));
    const altered = published.replace('"seen":1', '"seen":9');
    const future = lesson(alice, 2, day(30));
    const relay: GossipHolder = {
      known: () => new Map([[alice.origin as Origin, day(30)]]),
      lines: () => [altered, honest, lesson(bob, 0, day(2)), future],
      accept: () => ({ accepted: 0, refused: [] }),
    };
    const receiver = createMemoryHolder();
    const net = network({ 'http://relay.test': createGossipRoutes({ holder: relay }) });
    const report = await pullFromPeers(['http://relay.test'], receiver, { fetch: net.fetch, now });
    expect(report.peers[0]?.accepted).toBe(1);
    expect(report.peers[0]?.refused.map((r) => [r.line, r.code])).toEqual([
      [1, 'signature'],
      [3, 'wrong_origin'],
      [4, 'future'],
    ]);
    expect(receiver.lines(alice.origin)).toEqual([honest]);
  });

  it('learns peers from indexes, and goes on when a peer is down', async () => {
    const a = holding([published]);
    const net = network({
      'http://a.test': createGossipRoutes({
        holder: a,
        peers: () => ['http://b.test', 'http://d.test:8080/', 'file:///etc/passwd', 'not a url'],
      }),
    });
    const receiver = createMemoryHolder();
    const report = await pullFromPeers(['http://down.test', 'http://a.test', 'http://b.test'], receiver, {
      fetch: net.fetch,
      now,
    });
    expect(report.peers.map((peer) => peer.ok)).toEqual([false, true, false]);
    expect(report.peers[0]?.error).toMatch(/down/);
    expect(report.learned).toEqual(['http://d.test:8080']);
    expect(receiver.lines(alice.origin)).toEqual([published]);
  });
});
