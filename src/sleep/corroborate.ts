import { addSupport, appendAudit } from '../store/index.ts';
import { cutsOf, isLive, type Night } from './night.ts';
import { lineOf } from './report.ts';

/**
 * Pass 3b: a lesson received from another memory that means what one of this memory's own lessons means — the
 * average linkage of its text to the own lesson's sources reaches the linkage cut — corroborates it: +0.5,
 * counted once per memory however many of its lessons say the same (the same hash is counted when received).
 */
export function corroboratePass(night: Night): void {
  const { linkage: cut } = cutsOf(night);
  const entries = [...night.lessons.values()];
  const received = entries.filter(
    (entry) =>
      entry.lesson.origin !== 'self' &&
      isLive(entry.lesson) &&
      entry.lesson.review !== 'rejected' &&
      entry.textVec !== null,
  );
  if (received.length === 0) return;
  const own = entries.filter(
    (entry) =>
      entry.lesson.origin === 'self' && isLive(entry.lesson) && !entry.lesson.archived && entry.sum.count > 0,
  );
  const by = night.params.sharing.corroboration;
  for (const other of received) {
    for (const entry of own) {
      const { lesson } = entry;
      if (lesson.kind !== other.lesson.kind) continue;
      const linkage = entry.sum.linkageToVector(other.textVec!);
      if (linkage < cut) continue;
      const origin = other.lesson.origin;
      if (!addSupport(night.db, lesson.id, origin, 'corroborate', other.lesson.hash, night.now)) continue;
      lesson.strength += by;
      lesson.updatedAt = night.now;
      entry.changed = true;
      night.report.corroborated.push({ ...lineOf(lesson), by: origin });
      appendAudit(night.db, {
        at: night.now,
        actor: 'sleep',
        action: 'corroborate',
        rules: night.rules,
        lessonId: lesson.id,
        hash: lesson.hash,
        reason: `corroborated by ${origin}: its lesson ${other.lesson.id} means the same (average linkage ${linkage.toFixed(3)}): +${by}`,
        related: [other.lesson.id],
      });
    }
  }
}
