import { createRequire } from 'node:module';
import type { z as Zod } from 'zod';
import type { EmbedConfig } from '../core/index.ts';
// The error alone: the hook's path builds a space through this module, and core's front door builds rule tables.
import { RememError } from '../core/light.ts';
import type { Space } from './types.ts';
import { normalize } from './vector.ts';

/** Texts per request: large enough to amortise a round trip, small enough for any server's body limit. */
const BATCH = 64;

/** What the server said that we cannot use; becomes an `embed_unreachable` with the endpoint in front. */
class BadAnswer extends Error {}

interface Wire {
  /** Appended to the configured base URL. */
  path: string;
  body(model: string, input: string[]): unknown;
  /** The vectors in input order. */
  read(answer: unknown): number[][];
}

/**
 * zod, loaded on the first answer to check: the hashed space, which hooks use, never pays for it.
 */
let loaded: typeof Zod | undefined;
function zod(): typeof Zod {
  loaded ??= (createRequire(import.meta.url)('zod') as { z: typeof Zod }).z;
  return loaded;
}

const vector = () => zod().array(zod().number()).min(1);

function parse<T>(schema: Zod.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new BadAnswer(`answered an unexpected shape (${issue?.path.join('.') || 'body'}: ${issue?.message})`);
}

const wires: Record<'ollama' | 'openai', Wire> = {
  // https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings
  ollama: {
    path: '/api/embed',
    body: (model, input) => ({ model, input }),
    read: (answer) => parse(zod().object({ embeddings: zod().array(vector()) }), answer).embeddings,
  },
  // https://platform.openai.com/docs/api-reference/embeddings/create
  openai: {
    path: '/embeddings',
    body: (model, input) => ({ model, input, encoding_format: 'float' }),
    read: (answer) => {
      const rows = parse(
        zod().object({
          data: zod().array(zod().object({ embedding: vector(), index: zod().number().int().nonnegative() })),
        }),
        answer,
      ).data;
      const sorted = [...rows].sort((a, b) => a.index - b.index);
      sorted.forEach((row, i) => {
        if (row.index !== i) throw new BadAnswer(`answered indices that are not 0…${rows.length - 1}`);
      });
      return sorted.map((row) => row.embedding);
    },
  },
};

/** A space whose vectors come from an embedding model behind Ollama or an OpenAI-compatible endpoint. */
export function modelSpace(config: EmbedConfig, floor: number): Space {
  if (config.space === 'hashed') throw new RangeError('modelSpace: the hashed space has no model');
  const wire = wires[config.space];
  const endpoint = config.url.replace(/\/+$/, '') + wire.path;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey !== undefined && config.apiKey !== '')
    headers['authorization'] = `Bearer ${config.apiKey}`;
  let dims: number | undefined;

  async function request(input: string[]): Promise<number[][]> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(wire.body(config.model, input)),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new BadAnswer(describeFailure(error, config.timeoutMs));
    }
    if (!response.ok) throw new BadAnswer(`answered HTTP ${response.status}: ${excerpt(text)}`);
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new BadAnswer(`answered something that is not JSON: ${excerpt(text)}`);
    }
    const vectors = wire.read(answer);
    if (vectors.length !== input.length) {
      throw new BadAnswer(`answered ${vectors.length} vectors for ${input.length} texts`);
    }
    const size = dims ?? vectors[0]?.length;
    for (const v of vectors) {
      if (v.length !== size) throw new BadAnswer(`answered vectors of ${v.length} dimensions after ${size}`);
    }
    dims = size;
    return vectors;
  }

  async function embed(texts: readonly string[]): Promise<Float32Array[]> {
    // A blank text means nothing: the zero vector, and some servers refuse an empty input.
    const asked = texts.flatMap((text, i) => (text.trim() === '' ? [] : [i]));
    const answers: number[][] = [];
    try {
      for (let start = 0; start < asked.length; start += BATCH) {
        answers.push(...(await request(asked.slice(start, start + BATCH).map((i) => texts[i]!))));
      }
    } catch (error) {
      if (!(error instanceof BadAnswer)) throw error;
      throw new RememError(
        'embed_unreachable',
        `embedding model ${config.model} at ${endpoint} ${error.message}`,
      );
    }
    const out: Float32Array[] = texts.map(() => new Float32Array(dims ?? 0));
    asked.forEach((textIndex, k) => {
      out[textIndex] = normalize(answers[k]!);
    });
    return out;
  }

  return { name: `${config.space}:${config.model}`, kind: 'model', floor, embed };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `gave no answer within ${timeoutMs} ms`;
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (!(cause instanceof Error)) return `is unreachable: ${String(cause)}`;
  const code = (cause as NodeJS.ErrnoException).code;
  return `is unreachable: ${cause.message || code || cause.name}`;
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return '(empty body)';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
