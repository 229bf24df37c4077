import { describe, expect, it } from 'vitest';
import { lessonHash } from '../../src/core/index.ts';
import { drainPrimeLogs } from '../../src/prime/index.ts';
import { listInjections, openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storeLesson } from '../truth/fixtures.ts';
import { agentPaths } from './agent-paths.ts';

const tempDir = useTempDirs();
const project = '/tmp/remem-must-not-audited';
const said = 'The person told the agent: "the ocelot reports go to the person first"';

describe('MUST NOT: lesson text reaches an agent unaudited', () => {
  it('every path that shows a lesson to an agent leaves an audit row naming it, with its moment', async () => {
    const home = tempDir();
    const store = openStore(home);
    storeLesson(store.db, { id: 1, text: said });
    store.close();
    const hash = lessonHash('correction', said);
    const query = 'where do the ocelot reports go first';
    for (const path of agentPaths) {
      const before = (() => {
        const store = openStore(home);
        try {
          return listInjections(store.db).length;
        } finally {
          store.close();
        }
      })();
      const seen = await path.see({ home, project, query, now: day(1) });
      const shown = seen.some((item) => item.text.includes('ocelot reports go to the person'));
      const store = openStore(home);
      try {
        // What a hook showed is logged beside the store and moved into the audit by the nightly job.
        drainPrimeLogs(store);
        const rows = listInjections(store.db).slice(before);
        if (path.audit === null) {
          expect(rows, `${path.name} is truth's own read or a person's look: it audits nothing`).toEqual([]);
          continue;
        }
        expect(shown, `${path.name} should show the lesson in this memory`).toBe(true);
        const naming = rows.filter((row) => row.moment === path.audit && row.lessonHashes.includes(hash));
        expect(naming.length, `MUST NOT show a lesson unaudited via ${path.name}`).toBeGreaterThan(0);
      } finally {
        store.close();
      }
    }
  });
});
