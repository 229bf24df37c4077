import type { Adapter } from './adapter.ts';
import { anthropic } from './anthropic.ts';
import { chat } from './chat.ts';
import { responses } from './responses.ts';
import type { Api } from './types.ts';

/** The endpoints whose conversations the proxy reads; every other path is only passed on. */
export const endpoints: Readonly<Record<string, { api: Api; adapter: Adapter }>> = {
  '/v1/chat/completions': { api: 'chat', adapter: chat },
  '/chat/completions': { api: 'chat', adapter: chat },
  '/v1/responses': { api: 'responses', adapter: responses },
  '/responses': { api: 'responses', adapter: responses },
  '/v1/messages': { api: 'anthropic', adapter: anthropic },
};

/** The upstream a path goes to: Anthropic for `/v1/messages*`, OpenAI (or any compatible server) otherwise. */
export function upstreamFor(upstreams: { openai: string; anthropic: string }, path: string): string {
  return path.startsWith('/v1/messages') ? upstreams.anthropic : upstreams.openai;
}

/**
 * The upstream URL for a request: the base, then the path and query as they came. A base that
 * already ends in `/v1` (as OpenAI base URLs usually do) takes the path without its own `/v1`.
 */
export function upstreamUrl(base: string, path: string, query: string): string {
  const root = base.replace(/\/+$/, '');
  const rest = root.endsWith('/v1') && (path === '/v1' || path.startsWith('/v1/')) ? path.slice(3) : path;
  return root + rest + query;
}

// RFC 9110 §7.6.1 hop-by-hop fields, the framing fetch recomputes, and the proxy's own headers.
const REQUEST_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
  'accept-encoding',
  'x-remem',
  'x-remem-session',
]);

const RESPONSE_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Fields named in `Connection` are hop-by-hop too. */
function connectionFields(headers: Headers): Set<string> {
  const value = headers.get('connection');
  return new Set(value ? value.split(',').map((field) => field.trim().toLowerCase()) : []);
}

/**
 * The client's headers for the upstream, auth included and untouched. The body is asked for
 * unencoded so the copy the proxy reads is plain text (agent-formats.md §7.5 step 2).
 */
export function upstreamHeaders(incoming: Headers): Headers {
  const named = connectionFields(incoming);
  const headers = new Headers();
  for (const [name, value] of incoming) {
    if (!REQUEST_DROPPED.has(name) && !named.has(name)) headers.append(name, value);
  }
  headers.set('accept-encoding', 'identity');
  return headers;
}

/** The upstream's headers for the client. fetch decodes a compressed body, so its encoding and length go. */
export function clientHeaders(upstream: Headers): Headers {
  const named = connectionFields(upstream);
  const decoded = upstream.has('content-encoding');
  const headers = new Headers();
  for (const [name, value] of upstream) {
    if (RESPONSE_DROPPED.has(name) || named.has(name)) continue;
    if (decoded && (name === 'content-encoding' || name === 'content-length')) continue;
    headers.append(name, value);
  }
  return headers;
}
