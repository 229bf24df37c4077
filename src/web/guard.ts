import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

export const LOCAL_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function originIsLocal(origin: string, hosts: ReadonlySet<string>): boolean {
  try {
    const { hostname } = new URL(origin);
    return hosts.has(hostname) || hosts.has(`[${hostname}]`);
  } catch {
    return false;
  }
}

/**
 * Answers only to the local host names and to no other web origin: a page elsewhere cannot reach the view by
 * a name it controls (DNS rebinding) or from its own origin.
 */
export function localOnly(hosts: readonly string[]): MiddlewareHandler {
  const allowed = new Set(hosts);
  return async (c, next) => {
    const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
    if (!allowed.has(host))
      return c.json({ error: 'forbidden', reason: `host ${host || '(none)'} is not served here` }, 403);
    const origin = c.req.header('origin');
    if (origin && !originIsLocal(origin, allowed))
      return c.json({ error: 'forbidden', reason: `requests from ${origin} are not served` }, 403);
    await next();
  };
}

/** The bearer token from REMEM_HOME/token, compared in constant time. */
export function bearerOnly(token: string): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given || !sameToken(given, token)) {
      return c.json(
        { error: 'unauthorized', reason: 'the token `remem ui` printed is required (REMEM_HOME/token)' },
        401,
      );
    }
    await next();
  };
}

/**
 * Everything the page loads comes from here, it is framed by nobody, and the token in its address never
 * leaves in a Referer header.
 */
export function pageHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Cache-Control', 'no-store');
  };
}
