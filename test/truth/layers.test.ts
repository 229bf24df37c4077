import { describe, expect, it } from 'vitest';
import { defaultParams, type EmbedConfig, lessonHash, resolveConfig } from '../../src/core/index.ts';
import { recall } from '../../src/recall/index.ts';
import {
  approveLayer,
  insertRelation,
  openStore,
  putLayer,
  recordSleep,
  replaceLayerLessons,
  type Store,
} from '../../src/store/index.ts';
import {
  primeIndexVectors,
  refreshViewsEmbedding,
  type Visible,
  visibleToAgent,
  writePrimeIndex,
} from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { useLocalServers } from '../helpers/local-server.ts';
import { day, storeLesson } from './fixtures.ts';

const tempDir = useTempDirs();

function layerOf(store: Store, path: string, level: 'common' | 'domain', lessons: [string, number][]): void {
  putLayer(store.db, path, level, day(0));
  replaceLayerLessons(
    store.db,
    path,
    lessons.map(([text, strength]) => ({
      hash: lessonHash('error', text),
      kind: 'error',
      text,
      seen: 1,
      strength,
      updated: day(0),
      origin: null,
    })),
    day(0),
  );
  // The person approved the layer, as `remem layer approve` does.
  approveLayer(store.db, path, day(0));
}

const shown = (visible: Visible[]) =>
  visible.map((item) =>
    item.type === 'lesson' ? [item.lesson.text, item.layer?.level ?? 'personal'] : ['?', item.text],
  );

describe('visibleToAgent with layers', () => {
  it('composes: the union, the strongest instance, a tie to the lower layer, strongest first', () => {
    const store = openStore(tempDir());
    const own = 'The release script needs the signing key loaded.';
    storeLesson(store.db, { id: 1, kind: 'error', text: own, strength: 2 });
    layerOf(store, '/layers/common.jsonl', 'common', [
      [own, 2],
      ['The linter fails on generated files.', 1],
    ]);
    layerOf(store, '/layers/domain.jsonl', 'domain', [
      ['The linter fails on generated files.', 1],
      ['The cache warms only after the second build.', 3],
    ]);
    expect(shown(visibleToAgent(store.db, { now: day(1), scope: { project: '/p' } }))).toEqual([
      ['The cache warms only after the second build.', 'domain'],
      // A tie: the lowest layer's instance stands, a higher layer never overwrites it.
      [own, 'common'],
      ['The linter fails on generated files.', 'common'],
    ]);
    store.close();
  });

  it('keeps every own lesson of one hash (two projects), outranked only by a stronger layer instance', () => {
    const store = openStore(tempDir());
    const text = 'The integration tests need the database container running.';
    storeLesson(store.db, { id: 1, kind: 'error', text, project: '/a', strength: 1 });
    storeLesson(store.db, { id: 2, kind: 'error', text, project: '/b', strength: 2 });
    const all = { now: day(1), scope: { project: null, allProjects: true } };
    expect(shown(visibleToAgent(store.db, all))).toEqual([
      [text, 'personal'],
      [text, 'personal'],
    ]);
    layerOf(store, '/layers/common.jsonl', 'common', [[text, 1.5]]);
    expect(shown(visibleToAgent(store.db, all))).toEqual([
      [text, 'personal'],
      [text, 'personal'],
    ]);
    expect(shown(visibleToAgent(store.db, { now: day(1), scope: { project: '/a' } }))).toEqual([
      [text, 'common'],
    ]);
    store.close();
  });

  it('holds back a layer lesson whose hash this memory holds and judges not to hold', () => {
    const store = openStore(tempDir());
    const older = 'The deploy needs the VPN to reach the registry.';
    const newer = 'The deploy reaches the registry without the VPN since the move.';
    const olderId = storeLesson(store.db, { id: 1, kind: 'error', text: older, at: day(0) });
    const newerId = storeLesson(store.db, { id: 2, kind: 'error', text: newer, at: day(2) });
    insertRelation(store.db, {
      kind: 'supersedes',
      fromId: newerId,
      toId: olderId,
      actor: 'person',
      rules: 'test',
      reason: '',
      happenedAt: day(2),
      recordedAt: day(2),
    });
    layerOf(store, '/layers/common.jsonl', 'common', [[older, 5]]);
    expect(shown(visibleToAgent(store.db, { now: day(3), scope: { project: null } }))).toEqual([
      [newer, 'personal'],
    ]);
    store.close();
  });
});

describe('the prime index in a model space', () => {
  const servers = useLocalServers();

  /** An Ollama-speaking server on 127.0.0.1 whose vectors come from the text: one dimension per word. */
  async function ollama(): Promise<{ url: string; calls: string[][] }> {
    const calls: string[][] = [];
    const words = ['linter', 'generated', 'cache', 'build', 'release', 'key'];
    const url = await servers.listen((_req, raw, res) => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      calls.push(body.input);
      const embeddings = body.input.map((text) =>
        words.map((word) => (text.toLowerCase().includes(word) ? 1 : 0.01)),
      );
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ model: body.model, embeddings }));
    });
    return { url, calls };
  }

  it('embeds layer lessons with the configured model, keeps their vectors on a later rewrite, fails open', async () => {
    const { url, calls } = await ollama();
    const store = openStore(tempDir());
    const embed: EmbedConfig = { space: 'ollama', url, model: 'test-embed', timeoutMs: 5_000 };
    recordSleep(store.db, day(0), 'ollama:test-embed', {});
    layerOf(store, '/layers/common.jsonl', 'common', [['The linter fails on generated files.', 1]]);
    const views = await refreshViewsEmbedding(store, day(1), { embed, params: defaultParams });
    expect(views.problem).toBeNull();
    expect(calls).toEqual([['The linter fails on generated files.']]);
    const vectorOfFirst = () => {
      const vectors = primeIndexVectors(store.home, 'ollama:test-embed');
      expect(vectors.size).toBe(1);
      return [...vectors.values().next().value!];
    };
    const embedded = vectorOfFirst();
    expect(embedded[0]).toBeGreaterThan(0.5);
    expect(embedded[2]).toBeLessThan(0.05);

    // Recall in the model space finds the layer lesson by the vector the index holds.
    const config = resolveConfig({
      HOME: store.home,
      REMEM_HOME: store.home,
      REMEM_EMBED: 'ollama',
      REMEM_EMBED_URL: url,
      REMEM_EMBED_MODEL: 'test-embed',
    });
    const recalled = await recall(store, config, 'generated files and the linter', {
      k: 3,
      now: day(1),
      scope: { project: null },
      by: { agent: false, touch: false },
    });
    expect(recalled.space).toBe('ollama:test-embed');
    expect(recalled.hits.map((hit) => hit.item.text)).toEqual(['The linter fails on generated files.']);

    // A rewrite that cannot call the model (a veto, a review) keeps the vector the last one embedded.
    writePrimeIndex(store, day(2), defaultParams.hashedDims);
    expect(vectorOfFirst()).toEqual(embedded);

    // The model down: the views are written all the same, and the problem is said.
    const down: EmbedConfig = { ...embed, url: 'http://127.0.0.1:9', timeoutMs: 1_000 };
    const failed = await refreshViewsEmbedding(store, day(3), { embed: down, params: defaultParams });
    expect(failed.problem).toMatch(/layer lessons not embedded in ollama:test-embed/);
    expect(failed.primeIndex).toBe(1);
    expect(vectorOfFirst()).toEqual(embedded);
    store.close();
  });
});
