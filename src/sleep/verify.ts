import { DAY_MS } from '../core/index.ts';
import { dot } from '../embed/index.ts';
import { appendAudit, listPredictions, resolvePrediction, sessionStarts } from '../store/index.ts';
import { byTime, cutsOf, lessonVector, type Night, type NightEpisode } from './night.ts';
import { lineOf } from './report.ts';
import { disagree, wordsOfEpisode, wordsOfLesson } from './subject.ts';

/** The index of the first item that happened after `at` in a list oldest first. */
function firstAfter<T>(items: readonly T[], at: string, time: (item: T) => string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (time(items[middle]!) <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Pass 4: each open prediction is matched against episodes of its lesson's kind that *happened* after it
 * was made (not merely read since: a transcript can be read days late) and within the window: matched →
 * confirmed, +0.5; unmatched once the window has passed → failed, −0.5 (a correction keeps its strength). The
 * window is `windowDays` days and `windowSessions` sessions of the lesson's project (of every project, for the
 * person's own lessons), both: a month away from the project is no evidence that a lesson stopped applying, nor
 * is a busy afternoon.
 */
export function verifyPass(night: Night): void {
  const { match } = cutsOf(night);
  const { windowDays, windowSessions, confirmed, failed } = night.params.prediction;
  const now = night.now;
  const open = listPredictions(night.db, { state: 'open' });
  if (open.length === 0) return;
  const oldest = open.map((prediction) => prediction.madeAt).sort()[0]!;
  // Tonight's recent episodes by kind, oldest first: a prediction reads only its kind, from its own time on.
  const recent = new Map<string, NightEpisode[]>();
  for (const episode of night.episodes.values()) {
    if (episode.happenedAt <= oldest || episode.happenedAt > now) continue;
    const list = recent.get(episode.kind);
    if (list) list.push(episode);
    else recent.set(episode.kind, [episode]);
  }
  for (const list of recent.values()) list.sort(byTime);
  const starts = new Map<string | null, string[]>();
  const sessionsSince = (project: string | null, at: string): number => {
    let list = starts.get(project);
    if (list === undefined) {
      list = sessionStarts(night.db, project);
      starts.set(project, list);
    }
    return list.length - firstAfter(list, at, (start) => start);
  };
  for (const prediction of open) {
    const entry = night.lessons.get(prediction.lessonId);
    if (!entry) continue;
    const { lesson } = entry;
    const vec = lessonVector(entry);
    const end = new Date(new Date(prediction.madeAt).getTime() + windowDays * DAY_MS).toISOString();
    const words = wordsOfLesson(entry);
    let evidence: number | null = null;
    if (vec) {
      const candidates = recent.get(lesson.kind) ?? [];
      const from = firstAfter(candidates, prediction.madeAt, (episode) => episode.happenedAt);
      for (let i = from; i < candidates.length; i++) {
        const episode = candidates[i]!;
        if (episode.happenedAt > end) break;
        if (lesson.project !== null && episode.project !== lesson.project) continue;
        if (dot(vec, episode.vec) < match) continue;
        // Words that say the opposite are evidence against the lesson, never for it.
        if (disagree(lesson.kind, words, wordsOfEpisode(episode), night.params.truth.claimMaxTerms)) continue;
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
    } else if (now > end && sessionsSince(lesson.project, prediction.madeAt) >= windowSessions) {
      resolvePrediction(night.db, prediction.id, 'failed', now, null);
      // A correction the person did not have to make again may be one the agent heeded: its strength is left to
      // decay. Weakened for it, the rules a person gave early were archived before they were needed again.
      if (lesson.kind !== 'correction') lesson.strength = Math.max(0, lesson.strength + failed);
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
        reason: `prediction ${prediction.id} unmatched after ${windowDays} days and ${windowSessions} sessions`,
      });
    }
  }
}
