import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createClock, defaultParams, guard } from '../core/index.ts';
import {
  type CommonsState,
  defaultFileLimits,
  type FileLimits,
  isOrigin,
  type LineParser,
  latestAllowed,
  type Origin,
  parseRecordLine,
  readRecordFile,
  storedRecord,
  timeKey,
} from '../protocol/index.ts';
import { createStatesCache, listableStates } from './lessons.ts';
import type { CommonsStore, StoredRecord, TokenRow } from './store.ts';
import { findBearer } from './tokens.ts';

export interface CommonsDeps {
  store: CommonsStore;
  /** The clock, ISO 8601. */
  now?: () => string;
  /** Per memory: 1,000 records and 256 KB unless told; the request body limit is `maxBytes`. */
  limits?: FileLimits;
  /** N and W of the commons-wide states (3 and 90 days unless told). */
  states?: { N: number; W_days: number };
  /** The host names this server answers to, by the Host header (port ignored); loopback names unless told. */
  hosts?: readonly string[];
  /** Writes per token per window: 60 a minute unless told. */
  rate?: { requests: number; windowMs: number };
  /** How far ahead of this server's clock a record's `updated` may be; 10 minutes unless told. */
  skewMs?: number;
  /** How long computed states are reused while nothing is written; 30 seconds unless told. */
  statesTtlMs?: number;
  /** Called with failures the client sees only as a 500 or 503. */
  onError?: (error: unknown) => void;
}

type Env = { Variables: { token: TokenRow } };

const jsonlType = 'application/x-ndjson; charset=utf-8';
const maxPage = 1000;

function problem(c: Context, status: ContentfulStatusCode, error: string, message: string, extra = {}) {
  return c.json({ error, message, ...extra }, status);
}

function originOfFile(name: string): Origin | null {
  if (!name.endsWith('.jsonl')) return null;
  const origin = name.slice(0, -'.jsonl'.length);
  return isOrigin(origin) ? origin : null;
}

function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

function decodeCursor(cursor: string, length: number): string[] | null {
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parts) || parts.length !== length || !parts.every((p) => typeof p === 'string')) {
      return null;
    }
    return parts as string[];
  } catch {
    return null;
  }
}

function pageSize(text: string | undefined): number | null {
  if (text === undefined) return 500;
  const size = Number(text);
  return Number.isInteger(size) && size >= 1 && size <= maxPage ? size : null;
}

/**
 * The commons server: memories publish their signed files, anyone reads them and the commons-wide states.
 * Reads are open (and readable from any web page); writes need a bearer token bound to the file's origin
 * (or to any), come under a rate per token, and are taken only whole, when every line verifies.
 */
export function createCommonsApp(deps: CommonsDeps): Hono<Env> {
  const { store } = deps;
  const now = deps.now ?? createClock().iso;
  const limits = deps.limits ?? defaultFileLimits;
  const rate = deps.rate ?? { requests: 60, windowMs: 60_000 };
  const statesCache = createStatesCache(store, {
    N: deps.states?.N ?? defaultParams.commons.confirmations,
    W_days: deps.states?.W_days ?? defaultParams.commons.fadeDays,
    ttlMs: deps.statesTtlMs ?? 30_000,
  });
  const app = new Hono<Env>();

  app.onError((error, c) => {
    deps.onError?.(error);
    return problem(c, 503, 'unavailable', 'the commons could not answer; try again later');
  });
  app.notFound((c) => problem(c, 404, 'not_found', 'no such route'));

  // A page on another site cannot reach this server through a browser by a name it was not given, nor write to it.
  app.use(
    '*',
    guard({
      hosts: deps.hosts ?? ['localhost', '127.0.0.1', '::1'],
      foreignReads: true,
      // A memory's file is JSON Lines, labelled as such, as plain text or bytes, or not at all by a command line.
      bodyTypes: [
        'application/x-ndjson',
        'application/jsonl',
        'application/json',
        'text/plain',
        'application/octet-stream',
        '',
      ],
      maxBodyBytes: limits.maxBytes,
      maxJsonDepth: defaultParams.doors.maxJsonDepth,
      refuse: (c, status, code, reason) =>
        problem(c, status, code, reason, status === 413 ? { refused: [] } : {}),
    }),
  );
  app.use('*', async (c, next) => {
    await next();
    if (c.req.method === 'GET') c.header('access-control-allow-origin', '*');
  });

  app.get('/commons/index', async (c) => {
    const since = c.req.query('since');
    const sinceKey = since === undefined ? undefined : timeKey(since);
    if (sinceKey === null) return problem(c, 400, 'bad_since', 'since is not an ISO 8601 time');
    const limit = pageSize(c.req.query('limit'));
    if (limit === null) return problem(c, 400, 'bad_limit', `limit is a whole number from 1 to ${maxPage}`);
    const cursor = c.req.query('cursor');
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 2);
    if (after === null) return problem(c, 400, 'bad_cursor', 'cursor is not one this server gave');
    const rows = await store.indexPage({
      limit,
      ...(sinceKey === undefined ? {} : { sinceKey }),
      ...(after === undefined ? {} : { after: { updatedKey: after[0]!, origin: after[1]! } }),
    });
    const last = rows[rows.length - 1];
    return c.json({
      entries: rows.map(({ origin, updated, records }) => ({ origin, updated, records })),
      cursor:
        rows.length === limit && last !== undefined ? encodeCursor([last.updatedKey, last.origin]) : null,
    });
  });

  app.get('/commons/lessons', async (c) => {
    const state = c.req.query('state');
    if (state !== undefined && !listableStates.includes(state as CommonsState)) {
      return problem(c, 400, 'bad_state', `state is one of ${listableStates.join(', ')}`);
    }
    const limit = pageSize(c.req.query('limit'));
    if (limit === null) return problem(c, 400, 'bad_limit', `limit is a whole number from 1 to ${maxPage}`);
    const cursor = c.req.query('cursor');
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 1)?.[0];
    if (after === undefined && cursor !== undefined) {
      return problem(c, 400, 'bad_cursor', 'cursor is not one this server gave');
    }
    const all = await statesCache.states(now());
    const chosen = all.filter(
      (lesson) =>
        (state === undefined || lesson.state === state) && (after === undefined || lesson.hash > after),
    );
    const page = chosen.slice(0, limit);
    const last = page[page.length - 1];
    return c.json({
      lessons: page.map(({ lesson: _, ...shown }) => shown),
      cursor: chosen.length > limit && last !== undefined ? encodeCursor([last.hash]) : null,
    });
  });

  app.get('/commons/:file', async (c) => {
    const origin = originOfFile(c.req.param('file'));
    if (origin === null) return problem(c, 404, 'not_found', 'a file is /commons/<origin>.jsonl');
    const file = await store.getFile(origin);
    if (file === null) return problem(c, 404, 'not_found', `no file from ${origin}`);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'content-type': jsonlType });
  });

  const authorize: MiddlewareHandler<Env> = async (c, next) => {
    // Writes come from memories, never from a page in a browser: no CORS, and no cross-site form either.
    if (c.req.header('origin') !== undefined) {
      return problem(c, 403, 'cross_origin', 'writes are not taken from web pages');
    }
    const origin = originOfFile(c.req.param('file') ?? '');
    if (origin === null) return problem(c, 404, 'not_found', 'a file is /commons/<origin>.jsonl');
    const token = await findBearer(store, c.req.header('authorization'));
    if (token === null) {
      c.header('www-authenticate', 'Bearer');
      return problem(c, 401, 'unauthorized', 'writing needs a live bearer token');
    }
    if (token.origin !== null && token.origin !== origin) {
      return problem(c, 403, 'token_origin', `this token writes only ${token.origin}.jsonl`);
    }
    const at = Date.parse(now());
    const windowStart = Math.floor(at / rate.windowMs) * rate.windowMs;
    if ((await store.countRequest(token.id, windowStart)) > rate.requests) {
      c.header('retry-after', String(Math.ceil((windowStart + rate.windowMs - at) / 1000)));
      return problem(
        c,
        429,
        'rate_limited',
        `at most ${rate.requests} writes per token per ${rate.windowMs / 1000} s`,
      );
    }
    c.set('token', token);
    await next();
  };

  /**
   * A memory republishes its whole file on each sleep, most lines unchanged. A line byte for byte the same as
   * one in the file held for this origin was verified when that file was taken; only new lines are verified.
   */
  async function checkerFor(origin: Origin): Promise<LineParser> {
    const held = await store.getFile(origin);
    if (held === null) return parseRecordLine;
    const verified = new Set(
      Buffer.from(held.body)
        .toString('utf8')
        .split('\n')
        .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
        .filter((line) => line !== ''),
    );
    return (line) => (verified.has(line) ? storedRecord(line) : parseRecordLine(line));
  }

  app.put('/commons/:file', authorize, async (c) => {
    const origin = originOfFile(c.req.param('file'))!;
    const body = new Uint8Array(await c.req.arrayBuffer());
    const notAfter = latestAllowed({
      now: now(),
      ...(deps.skewMs === undefined ? {} : { skewMs: deps.skewMs }),
    });
    const read = readRecordFile(origin, body, { limits, notAfter, parse: await checkerFor(origin) });
    if (read.problem !== null) {
      const status = read.problem.code === 'empty' ? 400 : 413;
      return problem(c, status, read.problem.code, read.problem.reason, { refused: read.refused });
    }
    if (read.refused.length > 0 || read.updated === null) {
      const message = `${read.refused.length} of ${read.refused.length + read.records.length} lines refused; nothing was stored`;
      return problem(c, 422, 'refused_lines', message, { refused: read.refused });
    }
    const records: StoredRecord[] = read.records.map((parsed) => ({
      kind: parsed.kind,
      hash:
        parsed.kind === 'lesson'
          ? parsed.record.hash
          : parsed.kind === 'confirm'
            ? parsed.record.confirm
            : parsed.record.revoke,
      // The record schema admits only times timeKey reads.
      updatedKey: timeKey(parsed.record.updated)!,
      line: parsed.line,
    }));
    const updatedKey = timeKey(read.updated)!;
    const outcome = await store.putFile({ origin, body, updated: read.updated, updatedKey, records });
    if (outcome.outcome === 'stale') {
      const message = outcome.held.sameTime
        ? `the held file has the same updated (${outcome.held.updated}) and other records: a changed file carries a later updated`
        : `the held file is newer (updated ${outcome.held.updated}): updated must not go backwards`;
      return problem(c, 409, 'stale', message, { refused: [], held: outcome.held.updated });
    }
    return c.json({
      origin,
      updated: read.updated,
      records: records.length,
      bytes: body.byteLength,
      unchanged: outcome.outcome === 'unchanged',
    });
  });

  return app;
}
