import type { JsonObject } from './text.ts';
import type { Injection, ProxyMessage } from './types.ts';

/** The reply reconstructed from a response body or stream. */
export interface Reply {
  reply: string;
  /** The terminal event (or a whole JSON body) was seen. */
  complete: boolean;
  /** The upstream reported an error or an unfinished response. */
  failed: boolean;
  /** Responses: the id a later `previous_response_id` will name. */
  responseId: string | undefined;
}

/** Folds a stream's events into the reply, one event at a time. */
export interface StreamReply {
  /** One SSE event: `data` parsed as JSON, or the raw string (`[DONE]`) when it is not JSON. */
  event(name: string | undefined, data: unknown): void;
  result(): Reply;
}

/** What the transport needs to know about one wire format. */
export interface Adapter {
  /** The request's history as messages, with the text of each (content blocks joined). */
  normalise(body: JsonObject): ProxyMessage[];
  /** The request with the memory placed; the caller's objects are shared, never mutated. */
  place(body: JsonObject, injection: Injection): JsonObject;
  replyFromJson(body: unknown): Reply;
  streamReply(): StreamReply;
}
