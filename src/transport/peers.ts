import type { Params } from '../core/index.ts';
import type { Identity } from '../protocol/index.ts';
import { createStoreHolder, type ReceiveReport } from '../share/index.ts';
import {
  forgetPeer,
  learnPeer,
  listPeers,
  notePeerPull,
  type Store,
  type StoredPeer,
} from '../store/index.ts';
import { type PeerReport, peerUrl, pullFromPeers } from './gossip.ts';

/**
 * Gossip as the nightly job does it (protocol §5): a few peers each night — configured ones and ones learned
 * from peers' indexes, those pulled longest ago first — whatever they hold that is newer than what this memory
 * holds, every line checked and taken through `receive`. Peers are a convenience: one that is down or slow is
 * reported and skipped, and the night goes on.
 */

/** The counts `remem receive` reports, summed over every file a night's pulls took. */
const COUNTED = [
  'received',
  'updated',
  'corroborated',
  'confirmations',
  'revocations',
  'dropped',
  'known',
] as const;

/** What a night's pulls took: `remem receive`'s counts summed, and how many lessons were raised. */
export type PulledTotals = Record<(typeof COUNTED)[number] | 'raised', number>;

export interface NightlyPull {
  /** Every peer this memory could pull from: configured ones (usable) and learned ones. */
  known: number;
  /** The peers pulled tonight, at most `fanout`. */
  chosen: string[];
  peers: PeerReport[];
  /** Configured peers not used, and why. */
  unusable: { peer: string; reason: string }[];
  /** Peers named in indexes tonight and kept for later nights. */
  learned: string[];
  /** Learned peers dropped after failing night after night. */
  forgotten: string[];
  totals: PulledTotals;
}

export interface NightlyPullOptions {
  /** The configured peers, as written (`Config.peers`). */
  peers: readonly string[];
  params: Pick<Params, 'gossip' | 'sharing' | 'commons'>;
  now: string;
  fetch?: typeof fetch;
  /** Breaks ties between peers pulled equally long ago; `Math.random` unless told. */
  random?: () => number;
}

function configuredPeers(peers: readonly string[]) {
  const usable: string[] = [];
  const unusable: { peer: string; reason: string }[] = [];
  for (const peer of peers) {
    const url = peerUrl(peer);
    if (url === null) unusable.push({ peer, reason: 'not an http(s) URL without credentials' });
    else if (!usable.includes(url)) usable.push(url);
  }
  return { usable, unusable };
}

/** Never-pulled peers first, then those pulled longest ago; among equals configured ones, then chance. */
function choosePeers(
  configured: readonly string[],
  stored: readonly StoredPeer[],
  fanout: number,
  random: () => number,
): { chosen: string[]; known: number } {
  const byUrl = new Map(stored.map((peer) => [peer.url, peer]));
  const candidates = new Set(configured);
  for (const peer of stored) if (peer.learnedFrom !== null) candidates.add(peer.url);
  const isConfigured = new Set(configured);
  const ranked = [...candidates].map((url) => ({
    url,
    tried: byUrl.get(url)?.lastTriedAt ?? '',
    rank: isConfigured.has(url) ? 0 : 1,
    tie: random(),
  }));
  ranked.sort((a, b) =>
    a.tried !== b.tried ? (a.tried < b.tried ? -1 : 1) : a.rank !== b.rank ? a.rank - b.rank : a.tie - b.tie,
  );
  return { chosen: ranked.slice(0, Math.max(0, fanout)).map((peer) => peer.url), known: ranked.length };
}

function addTotals(totals: PulledTotals, report: ReceiveReport): void {
  for (const count of COUNTED) totals[count] += report[count];
  totals.raised += report.raised.length;
}

/** Pulls from at most `params.gossip.fanout` peers into this memory, and remembers how each answered. */
export async function pullFromKnownPeers(
  store: Store,
  identity: Identity,
  options: NightlyPullOptions,
): Promise<NightlyPull> {
  const { gossip } = options.params;
  const { usable, unusable } = configuredPeers(options.peers);
  const stored = listPeers(store.db);
  const { chosen, known } = choosePeers(usable, stored, gossip.fanout, options.random ?? Math.random);
  const totals = Object.fromEntries([...COUNTED, 'raised'].map((count) => [count, 0])) as PulledTotals;
  const result: NightlyPull = { known, chosen, peers: [], unusable, learned: [], forgotten: [], totals };
  if (chosen.length === 0) return result;

  const holder = createStoreHolder(store, identity, {
    now: () => options.now,
    params: options.params,
    onReceive: (report) => addTotals(totals, report),
  });
  const { maxRecords, maxBytes } = options.params.commons;
  const pulled = await pullFromPeers(chosen, holder, {
    fetch: options.fetch ?? fetch,
    now: options.now,
    timeoutMs: gossip.timeoutMs,
    peerBudgetMs: gossip.peerBudgetMs,
    limits: { maxRecords, maxBytes },
    except: identity.origin,
    maxLearned: gossip.maxLearned,
  });
  result.peers = pulled.peers;

  const isConfigured = new Set(usable);
  store.db.transaction(() => {
    for (const report of pulled.peers) notePeerPull(store.db, report.peer, options.now, report.error ?? null);
    let learnedCount = stored.filter((peer) => peer.learnedFrom !== null).length;
    for (const report of pulled.peers) {
      for (const url of report.learned ?? []) {
        if (isConfigured.has(url) || learnedCount >= gossip.maxLearned) continue;
        if (learnPeer(store.db, url, report.peer, options.now)) {
          learnedCount++;
          result.learned.push(url);
        }
      }
    }
    for (const peer of listPeers(store.db)) {
      if (peer.learnedFrom === null || isConfigured.has(peer.url)) continue;
      if (peer.failures < gossip.forgetAfterFailures) continue;
      forgetPeer(store.db, peer.url);
      result.forgotten.push(peer.url);
    }
  })();
  return result;
}

/** The peers this memory names in its own index: configured ones, and learned ones that have answered. */
export function peersToAnnounce(store: Store, configured: readonly string[]): string[] {
  const peers = new Set(configuredPeers(configured).usable);
  for (const peer of listPeers(store.db))
    if (peer.learnedFrom !== null && peer.lastOkAt !== null) peers.add(peer.url);
  return [...peers];
}
