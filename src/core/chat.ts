import { createRequire } from 'node:module';
import type { z as Zod } from 'zod';
import { RememError } from './errors.ts';

/** One message of an OpenAI-compatible chat. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The two chat wires: `openai` for any server that speaks the OpenAI chat API (Ollama's `/v1`, vLLM, llama.cpp,
 * LM Studio…), with `baseUrl` ending where `/chat/completions` is appended; `ollama` for Ollama's own `/api/chat`,
 * with `baseUrl` the server's root.
 */
export type ChatApi = 'openai' | 'ollama';

/** A chat model and how to ask it. */
export interface Endpoint {
  /** The OpenAI wire when absent. */
  api?: ChatApi;
  baseUrl: string;
  model: string;
  apiKey?: string;
  temperature: number;
  /** How long one answer may take. */
  timeoutMs: number;
  /** Tries before giving up on one request, and the first wait between them (doubled each time). */
  tries: number;
  retryMs: number;
}

/** The endpoint of one request to a configured model: no retry (the night goes on without it), temperature 0. */
export function oneTry(
  model: { api: ChatApi; url: string; model: string; apiKey?: string },
  timeoutMs: number,
): Endpoint {
  return {
    api: model.api,
    baseUrl: model.url,
    model: model.model,
    ...(model.apiKey ? { apiKey: model.apiKey } : {}),
    temperature: 0,
    timeoutMs,
    tries: 1,
    retryMs: 0,
  };
}

export interface ChatAnswer {
  content: string;
  toolCalls: ToolCall[];
}

/** What happened to a try that did not give an answer, for the person watching. */
export interface RetryNotice {
  model: string;
  attempt: number;
  tries: number;
  waitMs: number;
  reason: string;
}

/** A reasoning model's thinking is not part of its reply. */
export function visibleReply(reply: string): string {
  return reply.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
}

/**
 * zod, loaded on the first answer to check: core is loaded by every command, hooks included, and they never
 * talk to a chat model.
 */
let loaded: typeof Zod | undefined;
function zod(): typeof Zod {
  loaded ??= (createRequire(import.meta.url)('zod') as { z: typeof Zod }).z;
  return loaded;
}

function toolCallSchema() {
  const z = zod();
  return z.object({
    id: z.string().optional(),
    type: z.string().optional(),
    function: z.object({
      name: z.string().min(1),
      arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
    }),
  });
}

function messageSchema() {
  const z = zod();
  return z.object({ content: z.string().nullish(), tool_calls: z.array(toolCallSchema()).nullish() });
}

type WireMessage = Zod.infer<ReturnType<typeof messageSchema>>;

interface Wire {
  path: string;
  body(endpoint: Endpoint, messages: readonly ChatMessage[], tools: readonly ToolSpec[]): unknown;
  /** The reply's message, or null when the body is not this wire's answer. */
  message(body: unknown): WireMessage | null;
}

const wires: Record<ChatApi, Wire> = {
  // https://platform.openai.com/docs/api-reference/chat/create
  openai: {
    path: '/chat/completions',
    body: (endpoint, messages, tools) => ({
      model: endpoint.model,
      messages,
      temperature: endpoint.temperature,
      stream: false,
      ...(tools.length ? { tools } : {}),
    }),
    message: (body) => {
      const parsed = zod()
        .object({
          choices: zod()
            .array(zod().object({ message: messageSchema() }))
            .min(1),
        })
        .safeParse(body);
      return parsed.success ? parsed.data.choices[0]!.message : null;
    },
  },
  // https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
  ollama: {
    path: '/api/chat',
    body: (endpoint, messages, tools) => ({
      model: endpoint.model,
      messages,
      stream: false,
      options: { temperature: endpoint.temperature },
      ...(tools.length ? { tools } : {}),
    }),
    message: (body) => {
      const parsed = zod().object({ message: messageSchema() }).safeParse(body);
      return parsed.success ? parsed.data.message : null;
    },
  },
};

/** A failure worth another try (the server is down, slow, overloaded or answered garbage), or not. */
class ChatFailure extends Error {
  readonly retry: boolean;
  constructor(message: string, retry: boolean) {
    super(message);
    this.retry = retry;
  }
}

function parseAnswer(wire: Wire, api: ChatApi, text: string, wantTools: boolean): ChatAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ChatFailure(`the answer is not JSON (${JSON.stringify(text.slice(0, 80))})`, true);
  }
  const message = wire.message(body);
  if (message === null) {
    const want = api === 'ollama' ? 'message' : 'choices[0].message';
    throw new ChatFailure(`the answer is not a chat completion (no ${want})`, true);
  }
  const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}`,
    type: 'function',
    function: {
      name: call.function.name,
      arguments:
        typeof call.function.arguments === 'string'
          ? call.function.arguments
          : JSON.stringify(call.function.arguments),
    },
  }));
  const content = message.content ?? '';
  // A call to a tool it was not given is not a reply; its words, if any, are.
  const calls = wantTools ? toolCalls : [];
  if (visibleReply(content) === '' && calls.length === 0) throw new ChatFailure('the answer is empty', true);
  return { content, toolCalls: calls };
}

async function once(
  endpoint: Endpoint,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): Promise<ChatAnswer> {
  const api = endpoint.api ?? 'openai';
  const wire = wires[api];
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}${wire.path}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify(wire.body(endpoint, messages, tools)),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      const limit = endpoint.timeoutMs;
      throw new ChatFailure(
        `no answer within ${limit < 1000 ? `${limit} ms` : `${Math.round(limit / 1000)} s`}`,
        true,
      );
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ChatFailure(
      `cannot reach ${url} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      true,
    );
  }
  if (!response.ok) {
    const said = text.replace(/\s+/g, ' ').slice(0, 200);
    // Overloaded, rate-limited or failing: worth waiting for. Anything else (no such model, a bad request) is not.
    const retry = response.status === 408 || response.status === 429 || response.status >= 500;
    throw new ChatFailure(`${url} answered HTTP ${response.status}: ${said}`, retry);
  }
  return parseAnswer(wire, api, text, tools.length > 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One chat completion, tried again with a doubling wait while the server is down, slow or answers garbage.
 * Never returns a broken answer: after the last try, or at once for an answer no retry can change, it throws.
 */
export async function chat(
  endpoint: Endpoint,
  messages: readonly ChatMessage[],
  options: { tools?: readonly ToolSpec[]; onRetry?: (notice: RetryNotice) => void } = {},
): Promise<ChatAnswer> {
  let wait = endpoint.retryMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(endpoint, messages, options.tools ?? []);
    } catch (error) {
      if (!(error instanceof ChatFailure)) throw error;
      if (!error.retry || attempt >= endpoint.tries) {
        throw new RememError(
          'model_unavailable',
          `${endpoint.model}: ${error.message}${error.retry ? ` (gave up after ${attempt} tries)` : ''}`,
        );
      }
      options.onRetry?.({
        model: endpoint.model,
        attempt,
        tries: endpoint.tries,
        waitMs: wait,
        reason: error.message,
      });
      await sleep(wait);
      wait *= 2;
    }
  }
}
