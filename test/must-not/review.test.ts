import { describe, expect, it } from 'vitest';
import { createClock, defaultParams, type Params, resolveConfig } from '../../src/core/index.ts';
import { sleep } from '../../src/sleep/index.ts';
import { listPredictions, openStore } from '../../src/store/index.ts';
import { decideReview } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storeReceived } from '../truth/fixtures.ts';
import { seenByEveryPath } from './agent-paths.ts';

const tempDir = useTempDirs();
const pending = 'The agent found it had been wrong: "quokka builds need the arm64 image"';
const rejected = 'The agent found it had been wrong: "wombat deploys skip the canary"';

describe('MUST NOT: a pending_review or rejected lesson reaches an agent', () => {
  it('neither reaches any path, and both still predict silently until decided', async () => {
    const home = tempDir();
    const store = openStore(home);
    const waiting = storeReceived(store.db, { text: pending });
    const refused = storeReceived(store.db, { text: rejected, origin: 'f0e1d2c3b4a59687' });
    await sleep(store, resolveConfig({ REMEM_HOME: home, HOME: home }), createClock(day(1, 4)));
    expect(
      listPredictions(store.db, { lessonId: waiting }),
      'a pending lesson must still predict',
    ).toHaveLength(1);
    decideReview(store, {
      action: 'reject',
      ref: String(refused),
      now: day(1, 6),
      terminal: true,
      params: structuredClone(defaultParams) as Params,
    });
    store.close();
    for (const { path, seen } of await seenByEveryPath({
      home,
      project: '/tmp/remem-must-not-a',
      query: 'quokka builds arm64 image wombat deploys canary',
      now: day(1, 7),
    })) {
      const texts = seen.map((item) => item.text).join('\n');
      expect(texts, `MUST NOT show a pending_review lesson via ${path}`).not.toContain('quokka');
      expect(texts, `MUST NOT show a rejected lesson via ${path}`).not.toContain('wombat');
    }
  });
});
