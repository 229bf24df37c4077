import { Hono } from 'hono';
import { z } from 'zod';
import { append } from '../core/index.ts';
import {
  checkRecordLines,
  defaultFileLimits,
  type FileLimits,
  type FileProblem,
  type IndexEntry,
  indexEntrySchema,
  isNewer,
  isOrigin,
  type LineParser,
  type LineProblem,
  latestAllowed,
  type Origin,
  type ParsedRecord,
  readRecordFile,
  timeKey,
} from '../protocol/index.ts';

/**
 * Gossip (protocol §5): every memory serves the records it holds, its own and others', byte for byte as signed,
 * and pulls from a few peers whatever is newer than what it has. A relay cannot alter a record without its
 * signature failing, so a holder takes only what verifies; a directory of peers is a convenience.
 */

/** What a holder says about one record it did not take (a tombstone, a veto). */
export interface HolderRefusal {
  line: string;
  /** Why, as a code (`tombstoned`, `revoked`, …) when the holder has one. */
  code?: string;
  reason: string;
}

export interface AcceptResult {
  /** Records that changed what the holder has. */
  accepted: number;
  refused: HolderRefusal[];
}

/**
 * Whatever keeps received records: the memory's lessons store, or `createMemoryHolder` for tests.
 * `accept` is given only records that passed every check and are signed by `origin`.
 */
export interface GossipHolder {
  /** Each origin held, with the latest `updated` among its records as written. */
  known(): ReadonlyMap<Origin, string>;
  /** The lines held for `origin`, exactly as received. */
  lines(origin: Origin): readonly string[];
  accept(origin: Origin, records: readonly ParsedRecord[]): AcceptResult;
}

/** A holder's index: each origin it holds, its latest `updated` and how many records. */
export function indexOf(holder: GossipHolder, since?: string): IndexEntry[] {
  const sinceKey = since === undefined ? null : timeKey(since);
  const entries: IndexEntry[] = [];
  for (const [origin, updated] of holder.known()) {
    if (sinceKey !== null && (timeKey(updated) ?? '') <= sinceKey) continue;
    entries.push({ origin, updated, records: holder.lines(origin).length });
  }
  return entries.sort((a, b) => (a.origin < b.origin ? -1 : 1));
}

/** What one memory has that another lacks: the origins whose records are newer, and their lines. */
export interface Offer {
  origin: Origin;
  updated: string;
  lines: readonly string[];
}

/** The offers `source` makes to a holder that knows `known`: the same comparison a pull over HTTP makes. */
export function offersFrom(source: GossipHolder, known: ReadonlyMap<Origin, string>): Offer[] {
  const offers: Offer[] = [];
  for (const [origin, updated] of source.known()) {
    if (isNewer(updated, known.get(origin))) offers.push({ origin, updated, lines: source.lines(origin) });
  }
  return offers;
}

export interface CheckOptions {
  /** The receiver's clock, ISO 8601: records dated later than this plus `skewMs` are refused. */
  now: string;
  /** How far a sender's clock may run ahead; 10 minutes unless told. */
  skewMs?: number;
  limits?: FileLimits;
  /** The line checker; `parseRecordLine` unless memoised. */
  parse?: LineParser;
}

/** A line, a file or a record not taken, and why; `line` is 0 when the reason is not one line's. */
export interface PullRefusal {
  origin: Origin;
  line: number;
  /** A `LineProblem` or `FileProblem`, `http` for a file the peer did not serve, or the holder's code. */
  code: LineProblem | FileProblem | (string & {});
  reason: string;
}

export interface TakeResult {
  accepted: number;
  refused: PullRefusal[];
}

/** Checks an in-memory offer line by line and hands what verifies to the holder. */
export function takeOffer(holder: GossipHolder, offer: Offer, options: CheckOptions): TakeResult {
  const limits = options.limits ?? defaultFileLimits;
  const lines = offer.lines.slice(0, limits.maxRecords);
  const checked = checkRecordLines(offer.origin, lines, {
    notAfter: latestAllowed(options),
    ...(options.parse === undefined ? {} : { parse: options.parse }),
  });
  const result = holder.accept(offer.origin, checked.records);
  return {
    accepted: result.accepted,
    refused: [
      ...checked.refused.map((refusal) => ({ origin: offer.origin, ...refusal })),
      ...holderRefusals(offer.origin, result),
    ],
  };
}

function holderRefusals(origin: Origin, result: AcceptResult): PullRefusal[] {
  return result.refused.map((refusal) => ({
    origin,
    line: 0,
    code: refusal.code ?? 'holder',
    reason: refusal.reason,
  }));
}

export interface GossipDeps {
  holder: GossipHolder;
  /** Peers this memory knows, offered in its index so others can learn them. */
  peers?: () => readonly string[];
}

const jsonlType = 'application/x-ndjson; charset=utf-8';

/**
 * The routes a memory serves its records on: `GET /gossip/index` (`?since=` to list only what changed) and
 * `GET /gossip/<origin>.jsonl`. Read-only; the local API server mounts them.
 */
export function createGossipRoutes(deps: GossipDeps): Hono {
  const app = new Hono();
  app.get('/gossip/index', (c) => {
    const since = c.req.query('since');
    if (since !== undefined && timeKey(since) === null) {
      return c.json({ error: 'bad_since', message: 'since is not an ISO 8601 time' }, 400);
    }
    return c.json({ entries: indexOf(deps.holder, since), peers: [...(deps.peers?.() ?? [])] });
  });
  app.get('/gossip/:file', (c) => {
    const name = c.req.param('file');
    const origin = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
    if (!isOrigin(origin)) return c.json({ error: 'not_found', message: 'no such file' }, 404);
    const lines = deps.holder.lines(origin);
    if (lines.length === 0)
      return c.json({ error: 'not_found', message: `nothing held from ${origin}` }, 404);
    return c.body(`${lines.join('\n')}\n`, 200, { 'content-type': jsonlType });
  });
  return app;
}

export interface PullOptions extends CheckOptions {
  fetch: typeof fetch;
  /** Per request; 10 seconds unless told. */
  timeoutMs?: number;
  /** Per peer, all its requests together; 60 seconds unless told. */
  peerBudgetMs?: number;
  /** An origin not to pull (this memory's own: it never takes its own records from others). */
  except?: Origin;
  /** At most this many peers learned from one pull. */
  maxLearned?: number;
}

export interface PeerReport {
  peer: string;
  ok: boolean;
  error?: string;
  /** Origins whose newer files were fetched. */
  origins: number;
  accepted: number;
  refused: PullRefusal[];
  /** Peers its index named that this pull had not heard of. */
  learned?: string[];
}

export interface PullReport {
  peers: PeerReport[];
  /** Peers named in others' indexes that were not among `peers`: the caller may add them. */
  learned: string[];
}

const gossipIndexSchema = z.object({
  entries: z.array(indexEntrySchema),
  peers: z.array(z.string()).optional(),
});

/** The body of a response, refused past `maxBytes` rather than read whole. */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`response of ${declared} bytes is over ${maxBytes}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body === null) return new Uint8Array();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`response is over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A peer's base URL as gossip uses it (http or https, no credentials, no trailing slash), or null. */
export function peerUrl(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username !== '' || url.password !== '') return null;
    return url.href.replace(/\/$/, '');
  } catch {
    return null;
  }
}

async function pullFromPeer(
  peer: string,
  holder: GossipHolder,
  options: PullOptions,
  learned: Set<string>,
  skip: ReadonlySet<string>,
): Promise<PeerReport> {
  const report: PeerReport = { peer, ok: true, origins: 0, accepted: 0, refused: [] };
  const limits = options.limits ?? defaultFileLimits;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const budgetMs = options.peerBudgetMs ?? 60_000;
  const budget = AbortSignal.timeout(budgetMs);
  const get = (path: string) =>
    options.fetch(`${peer}${path}`, { signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), budget]) });
  try {
    const response = await get('/gossip/index');
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`index: HTTP ${response.status}`);
    }
    // An index lists at most one entry per origin: a generous cap still bounds what a peer can make us read.
    const raw = await readLimited(response, 64 * 1024 * 1024);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(raw).toString('utf8'));
    } catch {
      throw new Error('index: not JSON');
    }
    const index = gossipIndexSchema.safeParse(body);
    if (!index.success) throw new Error(`index: ${index.error.issues[0]?.message ?? 'not an index'}`);
    for (const named of index.data.peers ?? []) {
      const url = peerUrl(named);
      if (url === null || skip.has(url) || learned.has(url) || learned.size >= (options.maxLearned ?? 100))
        continue;
      learned.add(url);
      report.learned = [...(report.learned ?? []), url];
    }
    for (const entry of index.data.entries) {
      const origin = entry.origin as Origin;
      if (origin === options.except || !isNewer(entry.updated, holder.known().get(origin))) continue;
      const file = await get(`/gossip/${origin}.jsonl`);
      if (!file.ok) {
        await file.body?.cancel();
        report.refused.push({
          origin,
          line: 0,
          code: 'http',
          reason: `the peer answered HTTP ${file.status}`,
        });
        continue;
      }
      const body = await readLimited(file, limits.maxBytes);
      const read = readRecordFile(origin, body, {
        limits,
        notAfter: latestAllowed(options),
        ...(options.parse === undefined ? {} : { parse: options.parse }),
      });
      report.origins++;
      const result = holder.accept(origin, read.records);
      report.accepted += result.accepted;
      if (read.problem !== null) {
        report.refused.push({ origin, line: 0, code: read.problem.code, reason: read.problem.reason });
      }
      for (const refusal of read.refused) report.refused.push({ origin, ...refusal });
      append(report.refused, holderRefusals(origin, result));
    }
  } catch (error) {
    report.ok = false;
    report.error = describeFailure(error, budget.aborted ? `${budgetMs} ms in all` : `${timeoutMs} ms`);
  }
  return report;
}

/** One line a person can act on: `fetch failed` alone does not say the peer refused the connection. */
function describeFailure(error: unknown, limit: string): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${limit}`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === 'string' ? cause.code : cause?.message;
  return typeof detail === 'string' && detail !== '' ? `${error.message} (${detail})` : error.message;
}

/**
 * Pulls from each peer (a base URL serving the gossip routes) the files newer than what the holder has,
 * checks every line, and hands what verifies to the holder. Peers are asked at once, so a slow one costs no
 * more than its own timeouts; one peer failing never stops the others. Reports come in the order given.
 */
export async function pullFromPeers(
  peers: readonly string[],
  holder: GossipHolder,
  options: PullOptions,
): Promise<PullReport> {
  const bases = peers.map((peer) => peerUrl(peer) ?? peer);
  const skip = new Set(bases);
  const learned = new Set<string>();
  const reports = await Promise.all(bases.map((peer) => pullFromPeer(peer, holder, options, learned, skip)));
  return { peers: reports, learned: [...learned] };
}
