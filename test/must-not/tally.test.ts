import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClock, defaultParams, resolveConfig } from '../../src/core/index.ts';
import { formatTally, sleep } from '../../src/sleep/index.ts';
import {
  delegationTally,
  insertEpisodeOnce,
  openStore,
  replaceSessionOffers,
} from '../../src/store/index.ts';
import { refreshViews } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day } from '../truth/fixtures.ts';
import { seenByEveryPath } from './agent-paths.ts';

const tempDir = useTempDirs();
const project = '/tmp/remem-must-not-a';
const tail = 'Shall I go ahead and refactor the platypus module for you?';

describe('MUST NOT: the delegation tally reaches an agent', () => {
  it('neither the tally nor the replies it counts appear in anything an agent sees', async () => {
    const home = tempDir();
    const store = openStore(home);
    replaceSessionOffers(
      store.db,
      { agent: 'claude-code', session: 's1' },
      [
        {
          key: 'offer-1',
          kind: 'offer',
          agent: 'claude-code',
          session: 's1',
          project,
          happenedAt: day(0),
          replyTail: tail,
          answer: 'corrected',
          answerText: 'no, the platypus module stays as it is',
        },
      ],
      day(0),
    );
    insertEpisodeOnce(
      store.db,
      {
        key: 'c-1',
        kind: 'correction',
        agent: 'claude-code',
        session: 's1',
        project,
        happenedAt: day(0),
        title: 'platypus',
        text: 'no, the platypus module stays as it is',
        said: 'no, the platypus module stays as it is',
        detail: {},
        source: {},
      },
      'event',
      day(0),
    );
    await sleep(store, resolveConfig({ REMEM_HOME: home, HOME: home }), createClock(day(1, 4)));
    refreshViews(store, day(1, 4), defaultParams);
    const tally = formatTally(delegationTally(store.db));
    store.close();
    expect(readFileSync(join(home, 'morning.md'), 'utf8')).toContain(tally[0]!);
    const forbidden = [...tally, tail, 'handed the decision back'];
    for (const { path, seen } of await seenByEveryPath({
      home,
      project,
      query: `platypus ${tail}`,
      now: day(1, 5),
    })) {
      const texts = seen.map((item) => item.text).join('\n');
      for (const line of forbidden) {
        expect(texts, `MUST NOT show the delegation tally via ${path}: ${line}`).not.toContain(line);
      }
    }
    const shared = readFileSync(join(home, 'lessons.jsonl'), 'utf8');
    for (const line of forbidden)
      expect(shared, 'MUST NOT put the tally in lessons.jsonl').not.toContain(line);
  });
});
