import { DAY_MS } from '../core/index.ts';
import { insertPrediction, listPredictions } from '../store/index.ts';
import type { Night } from './night.ts';

/**
 * Pass 5: each lesson with no open prediction states that a coming session will meet what it says, unless its
 * last prediction failed and it has not been met since (stale: it waits to be said again). Not a strength
 * cut: a lesson learned when its session ended has decayed below its first strength by the first night, and
 * decay says how long since it was touched, not whether it still applies. A lesson received from another
 * memory always predicts: that is how it earns its place here.
 */
export function predictPass(night: Night): void {
  const predictions = listPredictions(night.db);
  const open = new Set(predictions.filter((p) => p.state === 'open').map((p) => p.lessonId));
  // The latest resolution of each lesson's predictions (ids grow with time: the last one read wins).
  const last = new Map<number, { state: string; at: string }>();
  for (const prediction of predictions) {
    if (prediction.state !== 'open' && prediction.resolvedAt !== null)
      last.set(prediction.lessonId, { state: prediction.state, at: prediction.resolvedAt });
  }
  const due = new Date(
    new Date(night.now).getTime() + night.params.prediction.windowDays * DAY_MS,
  ).toISOString();
  for (const entry of night.lessons.values()) {
    const { lesson } = entry;
    if (lesson.mergedInto !== null || lesson.vetoedAt !== null || lesson.archived || open.has(lesson.id))
      continue;
    if (lesson.review === 'rejected') continue;
    const received = lesson.origin !== 'self';
    const resolved = last.get(lesson.id);
    const metSince = (entry.sources.at(-1)?.happenedAt ?? '') > (resolved?.at ?? '');
    if (!received && resolved?.state === 'failed' && !metSince) continue;
    insertPrediction(night.db, lesson.id, night.now, due);
    night.report.predicted++;
  }
}
