import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

/** The names every local server answers to, as a Host header carries them. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** What one listener lets through its door. */
export interface GuardOptions {
  /** Host names it answers to (port ignored): lowercase, IPv6 in brackets, as a Host header carries them. */
  hosts: readonly string[];
  /** A page on another site may read (GET, HEAD) but never write: the commons' public reads. */
  foreignReads?: boolean;
  /**
   * The media types a request body may have ('' for none given), any when absent; a JSON body is also held to
   * `maxJsonDepth`.
   */
  bodyTypes?: readonly string[];
  maxBodyBytes: number;
  maxJsonDepth: number;
  /** How a refusal reads on this listener's wire; `{error, reason}` as JSON unless told. */
  refuse?: Refuse;
}

/** A refusal as the listener's wire shapes it. */
export type Refuse = (
  c: Context,
  status: 400 | 401 | 403 | 413 | 415,
  code: string,
  reason: string,
) => Response;

export const JSON_TYPES: readonly string[] = ['application/json'];

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The host of a Host header, lowercase and without its port; IPv6 keeps its brackets. */
export function hostOfHeader(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d*$/, '');
}

/** A name as a Host header carries it: lowercase, an IPv6 address in brackets. */
function asHostHeader(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

function originIsAllowed(origin: string, hosts: ReadonlySet<string>): boolean {
  try {
    const { hostname } = new URL(origin);
    return hosts.has(hostname) || hosts.has(`[${hostname}]`);
  } catch {
    return false; // `Origin: null` (a sandboxed frame, a file) is no local page either
  }
}

/** The media type of a Content-Type header, lowercase, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * How deep the arrays and objects of a JSON text nest, counted without recursion: a parser or validator that
 * recurses would overflow its stack on a body nested deep enough, and answer with an error of its own.
 * Stops counting past `limit`.
 */
export function jsonDepth(bytes: Uint8Array, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return deepest;
}

/** The body, read until it ends or passes `max` bytes (then null). */
async function readBounded(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}

function defaultRefusal(c: Context, status: 400 | 401 | 403 | 413 | 415, code: string, reason: string) {
  return c.json({ error: code, reason }, status);
}

/**
 * One door for every listener (`remem serve`, `remem ui`, `remem proxy`, the commons): the Host and Origin
 * allow-lists (a page elsewhere cannot reach the server by a name it controls, DNS rebinding, nor from its own
 * origin) and a body of an allowed type, size and depth, read whole before any route sees it.
 * A browser's cross-site `text/plain` POST, which needs no preflight, is refused by its type as well.
 */
export function guard(options: GuardOptions): MiddlewareHandler {
  const hosts = new Set(options.hosts.map(asHostHeader));
  const types = options.bodyTypes && new Set(options.bodyTypes);
  const refuse = options.refuse ?? defaultRefusal;
  return async (c, next) => {
    // A server always has the header (Node refuses HTTP/1.1 without one); a request made in process has its URL.
    const host = hostOfHeader(c.req.header('host') ?? new URL(c.req.url).host);
    if (!hosts.has(host))
      return refuse(c, 403, 'host_not_allowed', `host ${host || '(none)'} is not served here`);
    const reading = c.req.method === 'GET' || c.req.method === 'HEAD';
    const origin = c.req.header('origin');
    if (origin !== undefined && !(reading && options.foreignReads) && !originIsAllowed(origin, hosts))
      return refuse(c, 403, 'origin_not_allowed', `requests from ${origin} are not served`);
    const raw = c.req.raw;
    if (raw.body === null || reading) return next();
    const type = mediaType(c.req.header('content-type'));
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    if (declared === 0) return next();
    const tooLarge = `the body is over ${options.maxBodyBytes} bytes`;
    if (declared > options.maxBodyBytes) return refuse(c, 413, 'too_large', tooLarge);
    // A body the client encoded is passed as it came; its size is still bounded.
    const bytes = await readBounded(raw.body, options.maxBodyBytes);
    if (bytes === null) return refuse(c, 413, 'too_large', tooLarge);
    if (types && !types.has(type)) {
      const wanted = [...types].map((t) => t || 'untyped').join(', ');
      return refuse(
        c,
        415,
        'unsupported_media_type',
        `a body here is ${types.size > 1 ? 'one of ' : ''}${wanted}, not ${type || 'untyped'}`,
      );
    }
    if (JSON_TYPES.includes(type) && !c.req.header('content-encoding')) {
      if (jsonDepth(bytes, options.maxJsonDepth) > options.maxJsonDepth)
        return refuse(c, 400, 'too_deep', `the JSON nests deeper than ${options.maxJsonDepth} levels`);
    }
    c.req.raw = new Request(raw, { body: bytes });
    return next();
  };
}

/** The bearer token from REMEM_HOME/token, compared in constant time: for the routes after it. */
export function requireToken(token: string, refuse: Refuse = defaultRefusal): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given || !sameToken(given, token))
      return refuse(c, 401, 'unauthorized', 'a bearer token from REMEM_HOME/token is required');
    return next();
  };
}
