import { describe, expect, it } from 'vitest';
import { checkObservation, createClock, findImperative, resolveConfig } from '../../src/core/index.ts';
import { imperativeOpenings } from '../../src/core/observation.ts';
import { sleep } from '../../src/sleep/index.ts';
import { acceptWording } from '../../src/sleep/wording.ts';
import { insertEpisodeOnce, listLessons, openStore } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day } from '../truth/fixtures.ts';
import { seenByEveryPath } from './agent-paths.ts';

const tempDir = useTempDirs();
const instructions = imperativeOpenings.flatMap((rule) => rule.examples);

describe('MUST NOT: an imperative lesson is never stored', () => {
  it.each(instructions)('the observation rules refuse %j', (text) => {
    expect(
      checkObservation(text, 600),
      `MUST NOT store the instruction ${JSON.stringify(text)}`,
    ).not.toBeNull();
  });

  it.each(instructions)(
    'a wording that reads as an instruction is refused for the observation: %j',
    (text) => {
      const fallback = 'The person told the agent: "uv, not pip"';
      const { text: kept, refused } = acceptWording(text, fallback);
      expect(kept, 'MUST NOT keep an instruction as the lesson text').toBe(fallback);
      expect(refused).not.toBeNull();
    },
  );

  it('corrections worded as orders become observations of what the person said; nothing stored reads as an order', async () => {
    const home = tempDir();
    const store = openStore(home);
    instructions.slice(0, 6).forEach((said, index) => {
      insertEpisodeOnce(
        store.db,
        {
          key: `order-${index}`,
          kind: 'correction',
          agent: 'claude-code',
          session: `s${index}`,
          project: '/tmp/remem-must-not-a',
          happenedAt: day(0, 8 + index),
          title: said,
          text: said,
          said,
          agentBefore: 'I will go ahead.',
          detail: {},
          source: {},
        },
        'event',
        day(0, 20),
      );
    });
    await sleep(store, resolveConfig({ REMEM_HOME: home, HOME: home }), createClock(day(1, 4)));
    const lessons = listLessons(store.db);
    store.close();
    expect(lessons.length).toBeGreaterThan(0);
    for (const lesson of lessons) {
      expect(findImperative(lesson.text), `MUST NOT store an instruction: ${lesson.text}`).toBeNull();
    }
    for (const { path, seen } of await seenByEveryPath({
      home,
      project: '/tmp/remem-must-not-a',
      query: instructions.slice(0, 6).join(' '),
      now: day(1, 5),
    })) {
      for (const item of seen.filter((entry) => entry.kind === 'lesson')) {
        expect(findImperative(item.text), `MUST NOT show an instruction as a lesson via ${path}`).toBeNull();
      }
    }
  });
});
