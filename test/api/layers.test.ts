import { describe, expect, it } from 'vitest';
import { createApiApp } from '../../src/api/index.ts';
import { lessonHash, resolveConfig } from '../../src/core/index.ts';
import { injectFromMemory } from '../../src/proxy/index.ts';
import { approveLayer, openStore, putLayer, replaceLayerLessons } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();
const TOKEN = 'b'.repeat(64);
const NOW = '2026-11-02T09:00:00.000Z';
const TEXT = 'The staging database rejects migrations during business hours.';

/** A memory with nothing of its own and one common layer. */
function layered() {
  const home = tempDir();
  const config = resolveConfig({ HOME: home, REMEM_HOME: home });
  const store = openStore(home);
  putLayer(store.db, '/layers/common.jsonl', 'common', NOW);
  replaceLayerLessons(
    store.db,
    '/layers/common.jsonl',
    [
      {
        hash: lessonHash('error', TEXT),
        kind: 'error',
        text: TEXT,
        seen: 2,
        strength: 1,
        updated: NOW,
        origin: null,
      },
    ],
    NOW,
  );
  // The person approved the layer, as `remem layer approve` does.
  approveLayer(store.db, '/layers/common.jsonl', NOW);
  return { home, config, store };
}

describe('the layers on the API and the proxy', () => {
  it('GET /memory/lessons answers with the layer lesson and says which layer it came from', async () => {
    const { config, store } = layered();
    const api = createApiApp({ store, config, token: TOKEN, now: () => NOW, maxBodyBytes: 4096 });
    const answer = await api.request('/memory/lessons', {
      headers: { authorization: `Bearer ${TOKEN}`, host: '127.0.0.1:7777' },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      lessons: [
        {
          type: 'lesson',
          hash: lessonHash('error', TEXT),
          kind: 'error',
          text: TEXT,
          strength: 1,
          layer: 'common',
        },
      ],
    });
    store.close();
  });

  it('the proxy puts the layer lesson in front of the model, up front as at the moment', async () => {
    const { config, store, home } = layered();
    const deps = { config: { ...config, holdout: 0 }, db: store.db, now: () => NOW, cwd: home };
    const messages = [{ role: 'user' as const, text: 'Run the migrations on the staging database' }];
    const first = await injectFromMemory(deps, {
      api: 'chat',
      model: undefined,
      messages,
      placement: 'first',
      session: 'proxy-session',
    });
    expect(first?.text).toContain(TEXT);
    const moment = await injectFromMemory(deps, {
      api: 'chat',
      model: undefined,
      messages,
      placement: 'moment',
      session: 'proxy-session-2',
    });
    expect(moment?.lessonHashes).toEqual([lessonHash('error', TEXT)]);
    store.close();
  });
});
