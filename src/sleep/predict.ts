import { DAY_MS } from '../core/index.ts';
import { currentPredictionTallies, insertPrediction } from '../store/index.ts';
import type { Night } from './night.ts';

/**
 * Pass 5: each lesson with no open prediction states that a coming session will meet what it says, unless its
 * last prediction failed and it has not been met since (stale: it waits to be said again). Not a strength
 * cut: a lesson learned when its session ended has decayed below its first strength by the first night, and
 * decay says how long since it was touched, not whether it still applies. A lesson received from another
 * memory always predicts: that is how it earns its place here.
 */
export function predictPass(night: Night): void {
  const tallies = currentPredictionTallies(night.db);
  const due = new Date(
    new Date(night.now).getTime() + night.params.prediction.windowDays * DAY_MS,
  ).toISOString();
  for (const entry of night.lessons.values()) {
    const { lesson } = entry;
    const tally = tallies.get(lesson.id);
    if (lesson.mergedInto !== null || lesson.vetoedAt !== null || lesson.archived || (tally?.open ?? 0) > 0)
      continue;
    if (lesson.review === 'rejected') continue;
    if (lesson.origin === 'self' && tally?.lastFailedAt) {
      const met = [tally.lastConfirmedAt, entry.sources.at(-1)?.happenedAt].some(
        (at) => at != null && at > tally.lastFailedAt!,
      );
      if (!met) continue;
    }
    insertPrediction(night.db, lesson.id, night.now, due);
    night.report.predicted++;
  }
}
