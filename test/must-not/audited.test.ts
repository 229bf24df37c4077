import { describe, expect, it } from 'vitest';
import { lessonHash } from '../../src/core/index.ts';
import { drainPrimeLogs } from '../../src/prime/index.ts';
import { listInjections, openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, GECKO, storeContradiction, storeLesson } from '../truth/fixtures.ts';
import { agentPaths } from './agent-paths.ts';

const tempDir = useTempDirs();
const project = '/tmp/remem-must-not-audited';

function injectionCount(home: string): number {
  const store = openStore(home);
  try {
    return listInjections(store.db).length;
  } finally {
    store.close();
  }
}

/**
 * Walks every path by which memory reaches an agent: each that shows `shownText` must leave an audit row of its
 * moment naming every hash in `hashes`; truth's own read and a person's look audit nothing.
 */
async function expectEveryPathAudits(home: string, query: string, shownText: string, hashes: string[]) {
  for (const path of agentPaths) {
    const before = injectionCount(home);
    const seen = await path.see({ home, project, query, now: day(2) });
    const shown = seen.some((item) => item.text.includes(shownText));
    const store = openStore(home);
    try {
      // What a hook showed is logged beside the store and moved into the audit by the nightly job.
      drainPrimeLogs(store);
      const rows = listInjections(store.db).slice(before);
      if (path.audit === null) {
        expect(rows, `${path.name} is truth's own read or a person's look: it audits nothing`).toEqual([]);
        continue;
      }
      if (!shown) {
        expect(path.blob, `${path.name} should show it in this memory`).toBe(true);
        continue;
      }
      const naming = rows.filter(
        (row) => row.moment === path.audit && hashes.every((hash) => row.lessonHashes.includes(hash)),
      );
      expect(naming.length, `MUST NOT show a lesson unaudited via ${path.name}`).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }
}

describe('MUST NOT: lesson text reaches an agent unaudited', () => {
  it('every path that shows a lesson to an agent leaves an audit row naming it, with its moment', async () => {
    const said = 'The person told the agent: "the ocelot reports go to the person first"';
    const home = tempDir();
    const store = openStore(home);
    storeLesson(store.db, { id: 1, text: said });
    store.close();
    await expectEveryPathAudits(
      home,
      'where do the ocelot reports go first',
      'ocelot reports go to the person',
      [lessonHash('correction', said)],
    );
  });

  it('a contradiction shown as a question is audited as both of its lessons', async () => {
    const { yes, no } = GECKO;
    const home = tempDir();
    storeContradiction(home);
    await expectEveryPathAudits(
      home,
      'is the gecko cache shared between workers',
      'gecko cache is not shared',
      [lessonHash('correction', yes), lessonHash('correction', no)],
    );
  });
});
