import type { MiddlewareHandler } from 'hono';

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
