import { DAY_MS } from '../core/index.ts';
import { insertPrediction, listPredictions } from '../store/index.ts';
import type { Night } from './night.ts';

/**
 * Pass 5: each lesson with strength ≥ 1 and no open prediction states that a coming session will meet
 * what it says. A lesson received from another memory always predicts: that is how it earns its place here.
 */
export function predictPass(night: Night): void {
  const open = new Set(listPredictions(night.db, { state: 'open' }).map((prediction) => prediction.lessonId));
  const due = new Date(
    new Date(night.now).getTime() + night.params.prediction.windowDays * DAY_MS,
  ).toISOString();
  for (const { lesson } of night.lessons.values()) {
    if (lesson.mergedInto !== null || lesson.vetoedAt !== null || lesson.archived || open.has(lesson.id))
      continue;
    if (lesson.review === 'rejected') continue;
    const received = lesson.origin !== 'self';
    if (!received && lesson.strength < night.params.prediction.minStrength) continue;
    insertPrediction(night.db, lesson.id, night.now, due);
    night.report.predicted++;
  }
}
