import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { defaultParams, type EmbedConfig, RememError } from '../../src/core/index.ts';
import { createSpace, type Space } from '../../src/embed/index.ts';
import { useLocalServers } from '../helpers/local-server.ts';

interface Seen {
  path: string;
  authorization: string | undefined;
  body: { model: string; input: string[]; encoding_format?: string };
}

type Answer = (seen: Seen, res: ServerResponse) => void;

/** A model server on 127.0.0.1 speaking the real wire formats; vectors are made from the text. */
const fakeVector = (text: string): number[] => [text.length, 3, 4];

const ollama: Answer = (seen, res) =>
  json(res, 200, { model: seen.body.model, embeddings: seen.body.input.map(fakeVector) });

// Real servers may answer out of order; the index says where each belongs.
const openai: Answer = (seen, res) =>
  json(res, 200, {
    object: 'list',
    model: seen.body.model,
    data: seen.body.input
      .map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) }))
      .reverse(),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  });

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const servers = useLocalServers();

async function serve(answer: Answer): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const url = await servers.listen((req, raw, res) => {
    const request: Seen = {
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: JSON.parse(raw),
    };
    seen.push(request);
    answer(request, res);
  });
  return { url, seen };
}

function space(config: Partial<EmbedConfig> & Pick<EmbedConfig, 'space' | 'url'>): Space {
  return createSpace({ model: 'test-embed', timeoutMs: 5_000, ...config }, defaultParams);
}

async function failure(promise: Promise<unknown>): Promise<RememError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RememError);
  expect((error as RememError).code).toBe('embed_unreachable');
  return error as RememError;
}

const texts = (n: number): string[] => Array.from({ length: n }, (_, i) => 'x'.repeat(i + 1));

describe('the ollama space', () => {
  it('posts batches to /api/embed and keeps the order', async () => {
    const { url, seen } = await serve(ollama);
    const ollamaSpace = space({ space: 'ollama', url: `${url}/` });
    expect(ollamaSpace).toMatchObject({ name: 'ollama:test-embed', kind: 'model', floor: 0.35 });
    const vectors = await ollamaSpace.embed(texts(130));
    expect(seen.map((s) => [s.path, s.body.model, s.body.input.length])).toEqual([
      ['/api/embed', 'test-embed', 64],
      ['/api/embed', 'test-embed', 64],
      ['/api/embed', 'test-embed', 2],
    ]);
    expect(vectors).toHaveLength(130);
    vectors.forEach((v, i) => {
      const length = Math.hypot(i + 1, 3, 4);
      expect(v[0]).toBeCloseTo((i + 1) / length, 6);
      expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    });
    expect(seen[0]!.authorization).toBeUndefined();
  });

  it('sends nothing for no texts, and gives a blank text the zero vector', async () => {
    const { url, seen } = await serve(ollama);
    const ollamaSpace = space({ space: 'ollama', url });
    expect(await ollamaSpace.embed([])).toEqual([]);
    expect(seen).toHaveLength(0);
    const [a, blank, b] = await ollamaSpace.embed(['aa', '  ', 'bbb']);
    expect(seen[0]!.body.input).toEqual(['aa', 'bbb']);
    expect([...blank!]).toEqual([0, 0, 0]);
    expect(a![0]).toBeCloseTo(2 / Math.hypot(2, 3, 4), 6);
    expect(b![0]).toBeCloseTo(3 / Math.hypot(3, 3, 4), 6);
  });
});

describe('the openai space', () => {
  it('posts to {url}/embeddings with the key, and sorts by index', async () => {
    const { url, seen } = await serve(openai);
    const openaiSpace = space({ space: 'openai', url: `${url}/v1`, apiKey: 'sk-test' });
    expect(openaiSpace.name).toBe('openai:test-embed');
    const vectors = await openaiSpace.embed(texts(70));
    expect(seen.map((s) => [s.path, s.authorization, s.body.input.length, s.body.encoding_format])).toEqual([
      ['/v1/embeddings', 'Bearer sk-test', 64, 'float'],
      ['/v1/embeddings', 'Bearer sk-test', 6, 'float'],
    ]);
    vectors.forEach((v, i) => {
      expect(v[0]).toBeCloseTo((i + 1) / Math.hypot(i + 1, 3, 4), 6);
    });
  });

  it('refuses indices that do not cover the input', async () => {
    const { url } = await serve((seen, res) =>
      json(res, 200, { data: seen.body.input.map((text) => ({ index: 0, embedding: fakeVector(text) })) }),
    );
    const error = await failure(space({ space: 'openai', url }).embed(['a', 'b']));
    expect(error.message).toMatch(/indices/);
  });
});

describe('a model server that fails', () => {
  it('is down', async () => {
    const { url } = await serve(ollama);
    servers.closeAll();
    const error = await failure(space({ space: 'ollama', url }).embed(['hello']));
    expect(error.message).toMatch(
      /^embedding model test-embed at http:\/\/127\.0\.0\.1:\d+\/api\/embed is unreachable: /,
    );
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('is slow', async () => {
    const { url } = await serve(() => {
      // never answers
    });
    const started = Date.now();
    const error = await failure(space({ space: 'openai', url, timeoutMs: 200 }).embed(['hello']));
    expect(error.message).toMatch(/gave no answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it.each<[string, Answer, RegExp]>([
    [
      'an HTTP error',
      (_, res) => json(res, 404, { error: 'model "test-embed" not found' }),
      /HTTP 404: .*not found/,
    ],
    ['text that is not JSON', (_, res) => res.end('<html>proxy error</html>'), /not JSON: <html>proxy error/],
    ['the wrong shape', (_, res) => json(res, 200, { embedding: [1, 2] }), /unexpected shape \(embeddings: /],
    [
      'non-numbers',
      (_, res) => json(res, 200, { embeddings: [['a', 'b']] }),
      /unexpected shape \(embeddings\.0\.0/,
    ],
    ['empty vectors', (_, res) => json(res, 200, { embeddings: [[]] }), /unexpected shape/],
    ['too few vectors', (_, res) => json(res, 200, { embeddings: [[1, 2]] }), /1 vectors for 2 texts/],
    [
      'vectors of two sizes',
      (_, res) =>
        json(res, 200, {
          embeddings: [
            [1, 2],
            [1, 2, 3],
          ],
        }),
      /vectors of 3 dimensions after 2/,
    ],
  ])('answers %s', async (_name, answer, message) => {
    const { url } = await serve(answer);
    const error = await failure(space({ space: 'ollama', url }).embed(['hello', 'world']));
    expect(error.message).toMatch(message);
  });
});
