import { describe, expect, it } from 'vitest';
import { insertEpisodeOnce, openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storeLesson } from '../truth/fixtures.ts';
import { seenByEveryPath } from './agent-paths.ts';

const tempDir = useTempDirs();
const here = '/tmp/remem-must-not-a';
const there = '/tmp/remem-must-not-b';

describe('MUST NOT: a project lesson crosses into another project', () => {
  it("a project's lessons and episodes reach only its own sessions; personal lessons reach every project", async () => {
    const home = tempDir();
    const store = openStore(home);
    storeLesson(store.db, {
      id: 1,
      kind: 'surprise',
      project: here,
      text: 'The agent found it had been wrong: "the ocelot schema is versioned"',
    });
    storeLesson(store.db, {
      id: 2,
      text: 'The person told the agent: "the ocelot reports go to the person first"',
    });
    insertEpisodeOnce(
      store.db,
      {
        key: 'env-1',
        kind: 'environment',
        agent: 'claude-code',
        session: 's1',
        project: here,
        happenedAt: day(0),
        title: 'ocelot environment',
        text: 'the ocelot environment has no network',
        detail: {},
        source: {},
      },
      'event',
      day(0),
    );
    store.close();
    const query = 'ocelot schema versioned reports person environment network';
    for (const { path, seen, blob } of await seenByEveryPath({ home, project: there, query, now: day(1) })) {
      const texts = seen.map((item) => item.text).join('\n');
      expect(texts, `MUST NOT show another project's lesson via ${path}`).not.toContain(
        'schema is versioned',
      );
      expect(texts, `MUST NOT show another project's episode via ${path}`).not.toContain('has no network');
      if (blob) continue; // shows only what meets the moment, or renders outside any project
      expect(texts, `a personal lesson must reach every project via ${path}`).toContain(
        'reports go to the person',
      );
    }
    for (const { path, seen, blob } of await seenByEveryPath({ home, project: here, query, now: day(1) })) {
      if (blob) continue;
      expect(seen.map((item) => item.text).join('\n'), `its own project must see it via ${path}`).toContain(
        'schema is versioned',
      );
    }
  });
});
