import { describe, expect, it } from 'vitest';
import {
  currentPredictionTallies,
  insertPrediction,
  lastSeenOf,
  movePredictions,
  openStore,
  predictionTallies,
  resolvePrediction,
} from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { seeded } from '../helpers/random.ts';
import { day, storeLesson } from '../truth/fixtures.ts';

const tempDir = useTempDirs();

const END_OF_TIME = '9999-12-31T23:59:59.999Z';

describe('the predictions as they stand now', () => {
  it('are the count of every prediction, whatever wrote them: made, confirmed, failed, moved by a merge', () => {
    const store = openStore(tempDir());
    const { db } = store;
    const random = seeded(11);
    const lessons = Array.from({ length: 6 }, () => storeLesson(db));
    const open: number[] = [];
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    for (let step = 0; step < 400; step++) {
      const roll = random();
      if (roll < 0.45 || open.length === 0) {
        open.push(insertPrediction(db, pick(lessons), day(step % 60), day((step % 60) + 14)));
      } else if (roll < 0.9) {
        const id = open.splice(Math.floor(random() * open.length), 1)[0]!;
        resolvePrediction(db, id, random() < 0.5 ? 'confirmed' : 'failed', day((step % 60) + 1), null);
      } else {
        movePredictions(db, pick(lessons), pick(lessons));
      }
      if (step % 20 === 0 || step === 399) {
        expect(currentPredictionTallies(db)).toEqual(predictionTallies(db, END_OF_TIME));
      }
    }
    expect(currentPredictionTallies(db).size).toBeGreaterThan(0);
    store.close();
  });
});

describe('when a lesson was last seen', () => {
  it('is its latest source among those recorded by then', () => {
    const store = openStore(tempDir());
    const { db } = store;
    const a = storeLesson(db);
    const b = storeLesson(db);
    const add = (key: string, lessonId: number, happened: string, recorded: string) =>
      db
        .prepare(
          `INSERT INTO episodes (key, kind, origin, agent, session, happened_at, recorded_at, title, text, touched_at, lesson_id)
           VALUES (?, 'correction', 'event', 'a', 's', ?, ?, 't', 't', ?, ?)`,
        )
        .run(key, happened, recorded, happened, lessonId);
    add('1', a, day(1), day(1, 20));
    add('2', a, day(5), day(9));
    add('3', a, day(3), day(3, 20));
    add('4', b, day(2), day(2, 20));
    expect(lastSeenOf(db, [a, b], day(20))).toEqual(
      new Map([
        [a, day(5)],
        [b, day(2)],
      ]),
    );
    // Read on day 6, the source recorded on day 9 was not yet known.
    expect(lastSeenOf(db, [a, b], day(6))).toEqual(
      new Map([
        [a, day(3)],
        [b, day(2)],
      ]),
    );
    expect(lastSeenOf(db, [a], day(0))).toEqual(new Map());
    store.close();
  });
});
