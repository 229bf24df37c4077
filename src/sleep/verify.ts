import { DAY_MS } from '../core/index.ts';
import { dot } from '../embed/index.ts';
import { appendAudit, listPredictions, resolvePrediction } from '../store/index.ts';
import { cutsOf, lessonVector, type Night } from './night.ts';
import { lineOf } from './report.ts';
import { disagree, wordsOfEpisode, wordsOfLesson } from './subject.ts';

/**
 * Pass 4: each open prediction is matched against episodes of its lesson's kind that *happened* after it
 * was made (not merely read since: a transcript can be read days late) and within the window: matched →
 * confirmed, +0.5; unmatched once the window has passed → failed, −0.5.
 */
export function verifyPass(night: Night): void {
  const { match } = cutsOf(night);
  const { windowDays, confirmed, failed } = night.params.prediction;
  const now = night.now;
  const open = listPredictions(night.db, { state: 'open' });
  if (open.length === 0) return;
  const oldest = open.map((prediction) => prediction.madeAt).sort()[0]!;
  const recent = [...night.episodes.values()]
    .filter((episode) => episode.happenedAt > oldest && episode.happenedAt <= now)
    .sort((a, b) => (a.happenedAt < b.happenedAt ? -1 : a.happenedAt > b.happenedAt ? 1 : a.id - b.id));
  for (const prediction of open) {
    const entry = night.lessons.get(prediction.lessonId);
    if (!entry) continue;
    const { lesson } = entry;
    const vec = lessonVector(entry);
    const end = new Date(new Date(prediction.madeAt).getTime() + windowDays * DAY_MS).toISOString();
    const words = wordsOfLesson(entry);
    let evidence: number | null = null;
    if (vec) {
      for (const episode of recent) {
        if (
          episode.kind !== lesson.kind ||
          episode.happenedAt <= prediction.madeAt ||
          episode.happenedAt > end
        )
          continue;
        if (lesson.project !== null && episode.project !== lesson.project) continue;
        if (dot(vec, episode.vec) < match) continue;
        // Words that say the opposite are evidence against the lesson, never for it.
        if (disagree(lesson.kind, words, wordsOfEpisode(episode))) continue;
        evidence = episode.id;
        break;
      }
    }
    if (evidence !== null) {
      resolvePrediction(night.db, prediction.id, 'confirmed', now, evidence);
      lesson.strength += confirmed;
      lesson.updatedAt = now;
      entry.changed = true;
      night.report.confirmed.push(lineOf(lesson));
      appendAudit(night.db, {
        at: now,
        actor: 'sleep',
        action: 'confirm',
        rules: night.rules,
        lessonId: lesson.id,
        hash: lesson.hash,
        reason: `prediction ${prediction.id} met by episode ${evidence}`,
        related: [evidence],
      });
    } else if (now > end) {
      resolvePrediction(night.db, prediction.id, 'failed', now, null);
      lesson.strength = Math.max(0, lesson.strength + failed);
      lesson.updatedAt = now;
      entry.changed = true;
      night.report.failed.push(lineOf(lesson));
      appendAudit(night.db, {
        at: now,
        actor: 'sleep',
        action: 'fail',
        rules: night.rules,
        lessonId: lesson.id,
        hash: lesson.hash,
        reason: `prediction ${prediction.id} unmatched after ${windowDays} days`,
      });
    }
  }
}
