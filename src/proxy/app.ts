import { Hono } from 'hono';
import {
  createClock,
  defaultParams,
  guard,
  JSON_TYPES,
  LOOPBACK_NAMES,
  mediaType,
  requireToken,
} from '../core/index.ts';
import { eventSchema } from '../stream/index.ts';
import type { Adapter } from './adapter.ts';
import { clientHeaders, endpoints, upstreamFor, upstreamHeaders, upstreamUrl } from './forward.ts';
import { ResponseChains, sessionOf } from './session.ts';
import { jsonSink, type Sink, sseSink, tapStream } from './tap.ts';
import { isObject, type JsonObject } from './text.ts';
import type { Api, Exchange, Injection, ProxyDeps, ProxyMessage } from './types.ts';

/** What the proxy knows about a conversation request it reads, until its reply is recorded. */
interface Conversation {
  api: Api;
  adapter: Adapter;
  model: string | undefined;
  session: string;
  messages: ProxyMessage[];
  startedAt: string;
}

/** An error the proxy itself answers, shaped so both SDKs show its message. */
function errorResponse(status: number, type: string, message: string): Response {
  return new Response(JSON.stringify({ type: 'error', error: { type, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The request body as a JSON object, or undefined when it is not one (then it passes untouched). */
function parseObject(bytes: Uint8Array): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(),
    );
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The path and query exactly as the client wrote them (not decoded), to pass on as they came. */
function splitUrl(url: string): { path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start === -1) return { path: '/', query: '' };
  const queryAt = url.indexOf('?', start);
  return queryAt === -1
    ? { path: url.slice(start), query: '' }
    : { path: url.slice(start, queryAt), query: url.slice(queryAt) };
}

function reasonOf(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The memory proxy: OpenAI Chat Completions, Responses and Anthropic Messages passed to their
 * upstreams, with the memory injected into the request and the exchange recorded.
 */
export function createProxyApp(deps: ProxyDeps): Hono {
  const send = deps.fetch ?? fetch;
  const now = deps.now ?? createClock().iso;
  const chains = new ResponseChains();
  const report = (where: 'inject' | 'record' | 'remember', error: unknown): void => {
    try {
      deps.onError?.(where, error);
    } catch {
      // A failing reporter has nowhere left to report to.
    }
  };

  async function injectionFor(conversation: Conversation): Promise<Injection | null> {
    try {
      const { api, model, messages, session } = conversation;
      return await deps.inject({ api, model, messages, placement: deps.placement, session });
    } catch (error) {
      report('inject', error);
      return null;
    }
  }

  function record(conversation: Conversation, sink: Sink, broken: boolean): void {
    const endedAt = now();
    // Off the response path: the client already has the last byte.
    setImmediate(() => {
      try {
        const result = sink.result();
        if (conversation.api === 'responses' && result.responseId !== undefined) {
          chains.set(result.responseId, conversation.session);
        }
        const exchange: Exchange = {
          api: conversation.api,
          model: conversation.model,
          session: conversation.session,
          messages: conversation.messages,
          reply: result.reply,
          partial: broken || !result.complete || result.failed,
          malformed: result.malformed,
          startedAt: conversation.startedAt,
          endedAt,
        };
        deps.record(exchange);
      } catch (error) {
        report('record', error);
      }
    });
  }

  async function relay(
    request: Request,
    target: string,
    outgoing: RequestInit,
    conversation?: Conversation,
  ): Promise<Response> {
    let upstream: Response;
    try {
      upstream = await send(target, {
        ...outgoing,
        method: request.method,
        redirect: 'manual',
        signal: request.signal,
      });
    } catch (error) {
      if (request.signal.aborted) return errorResponse(499, 'client_closed', 'the client closed the request');
      return errorResponse(
        502,
        'upstream_unreachable',
        `cannot reach ${new URL(target).origin}: ${reasonOf(error)}`,
      );
    }
    const headers = clientHeaders(upstream.headers);
    const init = { status: upstream.status, statusText: upstream.statusText, headers };
    if (!conversation || !upstream.body || !upstream.ok) return new Response(upstream.body, init);
    const type = upstream.headers.get('content-type') ?? '';
    const sink = type.includes('text/event-stream')
      ? sseSink(conversation.adapter)
      : type.includes('json')
        ? jsonSink(conversation.adapter)
        : undefined;
    if (!sink) return new Response(upstream.body, init);
    const body = tapStream(upstream.body, sink, (broken) => record(conversation, sink, broken));
    return new Response(body, init);
  }

  async function proxy(request: Request): Promise<Response> {
    const { path, query } = splitUrl(request.url);
    const target = upstreamUrl(upstreamFor(deps.upstreams, path), path, query);
    const headers = upstreamHeaders(request.headers);
    const endpoint = request.method === 'POST' ? endpoints[path] : undefined;
    const bypass = request.headers.get('x-remem')?.trim().toLowerCase() === 'off';
    // A body encoded by the client is not read: it passes as it came.
    if (!endpoint || bypass || request.headers.has('content-encoding')) {
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
      return relay(request, target, hasBody ? { headers, body: request.body, duplex: 'half' } : { headers });
    }

    const bytes = new Uint8Array(await request.arrayBuffer());
    const body = parseObject(bytes);
    if (!body) return relay(request, target, { headers, body: bytes });

    const { api, adapter } = endpoint;
    const model = typeof body.model === 'string' ? body.model : undefined;
    const messages = adapter.normalise(body);
    const session =
      request.headers.get('x-remem-session') ||
      (api === 'responses' ? chains.get(body.previous_response_id) : undefined) ||
      sessionOf(api, model, messages);
    const conversation: Conversation = { api, adapter, model, session, messages, startedAt: now() };
    const injection = await injectionFor(conversation);
    // Unchanged requests go out as the very bytes that came in.
    const outgoing = injection ? JSON.stringify(adapter.place(body, injection)) : bytes;
    return relay(request, target, { headers, body: outgoing }, conversation);
  }

  async function remember(request: Request): Promise<Response> {
    if (!deps.remember) return errorResponse(404, 'not_found', 'this proxy does not take events');
    // A browser posts text/plain across sites without asking first; an event is JSON, labelled as JSON.
    const type = mediaType(request.headers.get('content-type') ?? undefined);
    if (!JSON_TYPES.includes(type))
      return errorResponse(
        415,
        'invalid_request_error',
        `an event is application/json, not ${type || 'untyped'}`,
      );
    let value: unknown;
    try {
      value = JSON.parse(await request.text());
    } catch {
      return errorResponse(400, 'invalid_request_error', 'the body is not JSON');
    }
    const parsed = eventSchema().safeParse(value);
    if (!parsed.success) {
      const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
      return errorResponse(400, 'invalid_request_error', `not an event: ${reason}`);
    }
    try {
      const answer = await deps.remember(value);
      return Response.json(answer.body, { status: answer.status });
    } catch (error) {
      report('remember', error);
      return errorResponse(500, 'remember_failed', 'the event could not be kept');
    }
  }

  const refuse = (_c: unknown, status: number, code: string, reason: string) =>
    errorResponse(status, code, reason);
  const app = new Hono();
  // Before anything is read, injected or recorded: a page on another site cannot write memory or conversations.
  app.use(
    '*',
    guard({
      hosts: deps.hosts ?? LOOPBACK_NAMES,
      maxBodyBytes: deps.limits?.maxBodyBytes ?? defaultParams.doors.proxyMaxBodyBytes,
      maxJsonDepth: deps.limits?.maxJsonDepth ?? defaultParams.doors.maxJsonDepth,
      refuse,
    }),
  );
  app.use(
    '/memory/*',
    deps.token === undefined
      ? async (c) => refuse(c, 403, 'forbidden', 'this proxy has no token for its memory routes')
      : requireToken(deps.token, refuse),
  );
  app.post('/memory/remember', (c) => remember(c.req.raw));
  app.all('*', (c) => proxy(c.req.raw));
  app.onError((error) => errorResponse(500, 'proxy_error', error.message));
  return app;
}
