/**
 * The seam between the proxy's transport and the memory: the transport speaks HTTP and the three
 * wire formats; the memory decides what to show (`inject`) and keeps what passed (`record`).
 */

/** The three wire formats the proxy understands. */
export type Api = 'chat' | 'responses' | 'anthropic';

/** Where the memory goes: at the moment it applies (default), up front, or last. */
export type Placement = 'moment' | 'first' | 'last';

/** One message of a conversation, whatever API carried it: its text, content blocks joined. */
export interface ProxyMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
}

/**
 * What to put in front of the model. `reason` decides where it goes; whatever the caller sent
 * before that point stays as it was, so their cached prefix survives:
 *
 * | reason           | Chat Completions                        | Responses                       | Anthropic Messages |
 * |------------------|-----------------------------------------|---------------------------------|--------------------|
 * | first            | own system message after the caller's   | appended to `instructions`      | system text block after the caller's, `cache_control` while under 4 breakpoints |
 * | last             | system message after the last message   | appended to `instructions`      | after the caller's system content, uncached |
 * | moment, reminder | system message after the last message   | developer message ending `input`| text block ending the latest user message (else as `last`) |
 */
export interface Injection {
  text: string;
  lessonHashes: string[];
  reason: 'moment' | 'reminder' | 'first' | 'last';
}

/** The request as the memory sees it: the normalised history, before any injection. */
export interface InjectRequest {
  api: Api;
  model: string | undefined;
  messages: ProxyMessage[];
  placement: Placement;
  session: string;
}

/** One exchange that passed the proxy: the request's messages and the reply the upstream gave. */
export interface Exchange {
  api: Api;
  model: string | undefined;
  session: string;
  messages: ProxyMessage[];
  /** The assistant's text; tool calls follow as `[tool_use NAME] INPUT` paragraphs. */
  reply: string;
  /** The client went away, the stream broke, or the upstream reported an error mid-stream. */
  partial: boolean;
  /** Stream lines or events that could not be parsed (they were still passed on). */
  malformed: number;
  startedAt: string;
  endedAt: string;
}

export interface ProxyDeps {
  upstreams: { openai: string; anthropic: string };
  placement: Placement;
  /** What to put in front of the model for this request, or null; gets the normalised history. */
  inject(request: InjectRequest): Promise<Injection | null> | Injection | null;
  /** A finished (or aborted) exchange, for the raw stream. Never throws into the request path. */
  record(exchange: Exchange): void;
  /** A protocol §0 event sent to `POST /memory/remember`, already validated. */
  remember?(event: unknown): Promise<{ status: number; body: unknown }>;
  /**
   * The bearer token `/memory/*` asks for (REMEM_HOME/token). Without one those routes are closed: the model
   * routes stay open to clients that cannot send a token, but not the memory's.
   */
  token?: string;
  /** Host names the proxy answers to; the loopback names unless told. */
  hosts?: readonly string[];
  /** Body limits: a model request's bytes (64 MB) and its nesting (64) unless told. */
  limits?: { maxBodyBytes: number; maxJsonDepth: number };
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** ISO 8601; defaults to the clock. */
  now?(): string;
  /** A dependency failed (`inject`, `record`, `remember`); the request went on without it. */
  onError?(where: 'inject' | 'record' | 'remember', error: unknown): void;
}
