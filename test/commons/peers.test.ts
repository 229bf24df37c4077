import type { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultParams, type Params } from '../../src/core/index.ts';
import { generateIdentity } from '../../src/protocol/index.ts';
import { addTombstone, listLessons, listPeers, openStore, type Store } from '../../src/store/index.ts';
import {
  createGossipRoutes,
  createMemoryHolder,
  type GossipHolder,
  pullFromKnownPeers,
} from '../../src/transport/index.ts';
import { alice, bob, carol, dave, erin, hashOf, lesson, parsed, tempDir } from './helpers.ts';

const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n, 4)).toISOString();

function holding(lines: readonly string[]): GossipHolder {
  const holder = createMemoryHolder();
  for (const line of lines) holder.accept(parsed(line).record.origin, [parsed(line)]);
  return holder;
}

/** Peers on made-up addresses, each a gossip app answered in process; any other address is down. */
function network(peers: Record<string, Hono>) {
  const requests: string[] = [];
  const fetchLike = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    requests.push(url.href);
    const app = peers[url.origin];
    if (app === undefined) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    return app.request(url.href, init);
  }) as typeof fetch;
  return { fetch: fetchLike, requests };
}

function withGossip(gossip: Partial<Params['gossip']>): Params {
  return { ...structuredClone(defaultParams), gossip: { ...defaultParams.gossip, ...gossip } } as Params;
}

const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function memory() {
  const store = openStore(tempDir());
  stores.push(store);
  return { store, identity: generateIdentity() };
}

const contacted = (requests: readonly string[]) =>
  [...new Set(requests.map((href) => new URL(href).origin))].sort();

describe('pullFromKnownPeers', () => {
  it('pulls a fanout’s worth a night, never-pulled peers first, then those pulled longest ago', async () => {
    const signers = [alice, bob, carol, dave, erin];
    const peers = signers.map((_, n) => `http://p${n + 1}.test`);
    const net = network(
      Object.fromEntries(
        peers.map((peer, n) => [
          peer,
          createGossipRoutes({ holder: holding([lesson(signers[n]!, n, day(0))]) }),
        ]),
      ),
    );
    const me = memory();
    const options = { peers, params: withGossip({ fanout: 2 }), fetch: net.fetch, random: () => 0 };
    const nights: string[][] = [];
    for (const n of [1, 2, 3]) {
      net.requests.length = 0;
      const pulled = await pullFromKnownPeers(me.store, me.identity, { ...options, now: day(n) });
      expect(pulled.known).toBe(5);
      expect(contacted(net.requests)).toEqual([...pulled.chosen].sort());
      nights.push(pulled.chosen);
    }
    expect(nights).toEqual([
      [peers[0], peers[1]],
      [peers[2], peers[3]],
      [peers[4], peers[0]],
    ]);
    expect(
      listLessons(me.store.db)
        .map((row) => row.origin)
        .sort(),
    ).toEqual(signers.map((signer) => signer.origin).sort());
    expect(listPeers(me.store.db).every((peer) => peer.failures === 0 && peer.lastOkAt !== null)).toBe(true);
  });

  it('learns peers from indexes up to a cap, pulls them on later nights, and forgets one that keeps failing', async () => {
    const net = network({
      'http://a.test': createGossipRoutes({
        holder: holding([lesson(alice, 0, day(0))]),
        peers: () => ['http://b.test/', 'http://gone.test', 'http://third.test', 'http://a.test'],
      }),
      'http://b.test': createGossipRoutes({ holder: holding([lesson(bob, 1, day(0))]) }),
    });
    const me = memory();
    const params = withGossip({ maxLearned: 2, forgetAfterFailures: 2 });
    const night = (n: number) =>
      pullFromKnownPeers(me.store, me.identity, {
        peers: ['http://a.test'],
        params,
        now: day(n),
        fetch: net.fetch,
      });

    const first = await night(1);
    expect(first.chosen).toEqual(['http://a.test']);
    expect(first.learned).toEqual(['http://b.test', 'http://gone.test']);
    const second = await night(2);
    expect(second.chosen.sort()).toEqual(['http://a.test', 'http://b.test', 'http://gone.test']);
    expect(second.peers.find((peer) => peer.peer === 'http://gone.test')).toMatchObject({
      ok: false,
      error: 'fetch failed (ECONNREFUSED)',
    });
    expect(second.totals.received).toBe(1);
    expect(second.forgotten).toEqual([]);
    const third = await night(3);
    expect(third.forgotten).toEqual(['http://gone.test']);
    expect(listPeers(me.store.db).map((peer) => peer.url)).toEqual(['http://a.test', 'http://b.test']);
    // The cap has room again: the next index may name the next peer.
    expect((await night(4)).learned).toEqual(['http://gone.test']);
  });

  it('refuses by the receiver’s own rules, says which, and never pulls back its own records', async () => {
    const me = memory();
    const vetoed = lesson(alice, 2, day(0));
    addTombstone(me.store.db, hashOf(vetoed), 'vetoed here', null, day(0));
    const mine = lesson(me.identity, 3, day(0));
    const net = network({
      'http://a.test': createGossipRoutes({ holder: holding([vetoed, mine, lesson(bob, 4, day(0))]) }),
    });
    const pulled = await pullFromKnownPeers(me.store, me.identity, {
      peers: ['http://a.test', 'not a url', 'http://user:secret@b.test'],
      params: defaultParams as Params,
      now: day(1),
      fetch: net.fetch,
    });
    expect(pulled.unusable.map((peer) => peer.peer)).toEqual(['not a url', 'http://user:secret@b.test']);
    expect(pulled.peers[0]).toMatchObject({
      ok: true,
      origins: 2,
      accepted: 1,
      refused: [{ origin: alice.origin, line: 0, code: 'tombstoned' }],
    });
    expect(net.requests).not.toContain(`http://a.test/gossip/${me.identity.origin}.jsonl`);
    expect(listLessons(me.store.db).map((row) => row.origin)).toEqual([bob.origin]);
  });

  it('does nothing when no peer is known', async () => {
    const me = memory();
    const pulled = await pullFromKnownPeers(me.store, me.identity, {
      peers: [],
      params: defaultParams as Params,
      now: day(1),
      fetch: network({}).fetch,
    });
    expect(pulled).toMatchObject({ known: 0, chosen: [], peers: [] });
  });
});
