import { z } from 'zod';
import { append, RememError } from '../core/index.ts';
import {
  defaultFileLimits,
  type IndexEntry,
  indexEntrySchema,
  isNewer,
  latestAllowed,
  type Origin,
  type ParsedRecord,
  parseRecordLine,
  readRecordFile,
} from '../protocol/index.ts';
import {
  type CheckOptions,
  type GossipHolder,
  type PeerReport,
  type PullRefusal,
  readLimited,
} from './gossip.ts';

/**
 * The commons seen from a memory: publish its file, read others', list what changed, and pull what is newer
 * into a holder. A commons is a big peer: every record it serves is checked here again, as from any relay.
 */

export interface CommonsClientOptions {
  /** The commons' base URL, e.g. `https://remem.example/` (routes are under `/commons/`). */
  url: string;
  /** The bearer token for writing, from `remem commons token add`. */
  token?: string;
  fetch?: typeof fetch;
  /** Per request; 30 seconds unless told. */
  timeoutMs?: number;
}

export interface ServerRefusal {
  line: number;
  code: string;
  reason: string;
}

export type PublishResult =
  | { ok: true; status: number; updated: string; records: number; unchanged: boolean }
  | { ok: false; status: number; error: string; message: string; refused: ServerRefusal[] };

export interface IndexQuery {
  since?: string;
  cursor?: string;
  limit?: number;
}

export interface IndexPage {
  entries: IndexEntry[];
  /** Where the next page starts, or null on the last page. */
  cursor: string | null;
}

export type LessonStateName = 'candidate' | 'common' | 'fading' | 'revoked' | 'removed';

/** A lesson as the commons lists it, its line verified here; the state is the commons' count, not a proof. */
export interface ListedLesson {
  hash: string;
  state: LessonStateName;
  confirmations: number;
  lastConfirmed: string | null;
  record: ParsedRecord;
}

export interface CommonsClient {
  publish(origin: Origin, body: string | Uint8Array): Promise<PublishResult>;
  /** The file exactly as the commons holds it, or null when it holds none. */
  file(origin: Origin): Promise<Uint8Array | null>;
  index(query?: IndexQuery): Promise<IndexPage>;
  lessons(state: LessonStateName): Promise<{ lessons: ListedLesson[]; unverified: number }>;
}

const publishedSchema = z.object({ updated: z.string(), records: z.number(), unchanged: z.boolean() });
const refusedSchema = z.object({
  error: z.string(),
  message: z.string(),
  refused: z.array(z.object({ line: z.number(), code: z.string(), reason: z.string() })).optional(),
});
const indexPageSchema = z.object({ entries: z.array(indexEntrySchema), cursor: z.string().nullable() });
const lessonsSchema = z.object({
  lessons: z.array(
    z.object({
      hash: z.string(),
      state: z.enum(['candidate', 'common', 'fading', 'revoked', 'removed']),
      confirmations: z.number().int().min(0),
      lastConfirmed: z.string().nullable(),
      line: z.string(),
    }),
  ),
  cursor: z.string().nullable(),
});

async function jsonOf<T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  const raw = await readLimited(response, 64 * 1024 * 1024);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch {
    throw new RememError('commons_reply', `${what}: the commons answered with something that is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new RememError(
      'commons_reply',
      `${what}: ${parsed.error.issues[0]?.message ?? 'unexpected answer'}`,
    );
  }
  return parsed.data;
}

export function createCommonsClient(options: CommonsClientOptions): CommonsClient {
  const base = options.url.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  const request = (path: string, init: RequestInit = {}) =>
    send(`${base}${path}`, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
  const fail = (what: string, response: Response) =>
    new RememError('commons_unavailable', `${what}: the commons answered HTTP ${response.status}`);

  return {
    async publish(origin, body) {
      if (options.token === undefined) throw new RememError('commons_token', 'publishing needs a token');
      const response = await request(`/commons/${origin}.jsonl`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${options.token}`,
          'content-type': 'application/x-ndjson; charset=utf-8',
        },
        body: typeof body === 'string' ? body : Buffer.from(body),
      });
      if (response.ok) {
        const done = await jsonOf(response, publishedSchema, 'publish');
        return { ok: true, status: response.status, ...done };
      }
      const refused = await jsonOf(response, refusedSchema, 'publish');
      return { ok: false, status: response.status, ...refused, refused: refused.refused ?? [] };
    },

    async file(origin) {
      const response = await request(`/commons/${origin}.jsonl`);
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) throw fail(`reading ${origin}`, response);
      return readLimited(response, defaultFileLimits.maxBytes);
    },

    async index(query = {}) {
      const params = new URLSearchParams();
      if (query.since !== undefined) params.set('since', query.since);
      if (query.cursor !== undefined) params.set('cursor', query.cursor);
      if (query.limit !== undefined) params.set('limit', String(query.limit));
      const suffix = params.size > 0 ? `?${params}` : '';
      const response = await request(`/commons/index${suffix}`);
      if (!response.ok) throw fail('index', response);
      const page = await jsonOf(response, indexPageSchema, 'index');
      return { entries: page.entries as IndexEntry[], cursor: page.cursor };
    },

    async lessons(state) {
      const lessons: ListedLesson[] = [];
      let unverified = 0;
      let cursor: string | null = null;
      do {
        const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const response = await request(`/commons/lessons?state=${state}${suffix}`);
        if (!response.ok) throw fail('lessons', response);
        const page = await jsonOf(response, lessonsSchema, 'lessons');
        for (const listed of page.lessons) {
          const record = parseRecordLine(listed.line);
          if ('refused' in record || record.kind !== 'lesson' || record.record.hash !== listed.hash) {
            unverified++;
            continue;
          }
          const { line: _, ...rest } = listed;
          lessons.push({ ...rest, record });
        }
        cursor = page.cursor;
      } while (cursor !== null);
      return { lessons, unverified };
    },
  };
}

/**
 * Pulls from the commons every file newer than what the holder has (paging through its index), checks every
 * line as from any peer, and hands what verifies to the holder.
 */
export async function pullFromCommons(
  client: CommonsClient,
  holder: GossipHolder,
  options: CheckOptions & { since?: string },
): Promise<PeerReport> {
  const report: PeerReport = { peer: 'commons', ok: true, origins: 0, accepted: 0, refused: [] };
  const limits = options.limits ?? defaultFileLimits;
  const notAfter = latestAllowed(options);
  try {
    let cursor: string | null = null;
    do {
      const page: IndexPage = await client.index({
        ...(options.since === undefined ? {} : { since: options.since }),
        ...(cursor === null ? {} : { cursor }),
      });
      for (const entry of page.entries) {
        if (!isNewer(entry.updated, holder.known().get(entry.origin))) continue;
        const body = await client.file(entry.origin);
        if (body === null) continue;
        const read = readRecordFile(entry.origin, body, {
          limits,
          notAfter,
          ...(options.parse === undefined ? {} : { parse: options.parse }),
        });
        report.origins++;
        const result = holder.accept(entry.origin, read.records);
        report.accepted += result.accepted;
        const refused: PullRefusal[] = read.refused.map((refusal) => ({ origin: entry.origin, ...refusal }));
        if (read.problem !== null) {
          refused.unshift({
            origin: entry.origin,
            line: 0,
            code: read.problem.code,
            reason: read.problem.reason,
          });
        }
        for (const refusal of result.refused) {
          refused.push({ origin: entry.origin, line: 0, code: 'holder', reason: refusal.reason });
        }
        append(report.refused, refused);
      }
      cursor = page.cursor;
    } while (cursor !== null);
  } catch (error) {
    report.ok = false;
    report.error = error instanceof Error ? error.message : String(error);
  }
  return report;
}
