import { DAY_MS, decayed } from '../core/index.ts';
import { appendAudit, archiveEpisodes, fadingEpisodes } from '../store/index.ts';
import { isLive, type Night } from './night.ts';
import { lineOf } from './report.ts';

/**
 * Pass 1: strength halves every 45 days without a touch; below 0.15 a lesson or episode is archived —
 * no longer competing for attention, never deleted.
 */
export function decayPass(night: Night): void {
  const { halfLifeDays, archiveBelow } = night.params.decay;
  const now = new Date(night.now).getTime();
  for (const entry of night.lessons.values()) {
    const { lesson } = entry;
    if (!isLive(lesson) || lesson.archived) continue;
    const days = (now - new Date(lesson.decayedAt).getTime()) / DAY_MS;
    if (days <= 0) continue;
    lesson.strength = decayed(lesson.strength, days, halfLifeDays);
    lesson.decayedAt = night.now;
    entry.changed = true;
    if (lesson.strength < archiveBelow) {
      lesson.archived = true;
      night.report.archived.push(lineOf(lesson));
      appendAudit(night.db, {
        at: night.now,
        actor: 'sleep',
        action: 'archive',
        rules: night.rules,
        lessonId: lesson.id,
        hash: lesson.hash,
        reason: `strength ${lesson.strength.toFixed(3)} fell below ${archiveBelow}`,
      });
    }
  }
  // Episodes keep the strength they had when last touched; what it is worth now follows from the time since.
  const faded: number[] = [];
  for (const row of fadingEpisodes(night.db)) {
    const days = (now - new Date(row.touchedAt).getTime()) / DAY_MS;
    if (decayed(row.strength, days, halfLifeDays) >= archiveBelow) continue;
    faded.push(row.id);
    night.report.episodesArchived++;
    const episode = night.episodes.get(row.id);
    if (episode && episode.lessonId === null) night.episodes.delete(row.id);
  }
  archiveEpisodes(night.db, faded);
  if (faded.length > 0)
    night.report.episodesArchivedAfterDays = Math.round(halfLifeDays * Math.log2(1 / archiveBelow));
}
