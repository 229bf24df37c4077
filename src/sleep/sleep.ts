import type { Clock, Config } from '../core/index.ts';
import { RememError } from '../core/index.ts';
import { toBlob, VectorSum } from '../embed/index.ts';
import {
  holdoutTally,
  type KeptSum,
  lastSleep,
  listLessons,
  listTombstones,
  putVector,
  recordSleep,
  replaceSleepReport,
  type Store,
  saveLesson,
  writeLessonSum,
} from '../store/index.ts';
import { corroboratePass } from './corroborate.ts';
import { decayPass } from './decay.ts';
import { embedPass } from './embed-pass.ts';
import { writeMorningReport } from './files.ts';
import { judgePass } from './judge.ts';
import { lessonsPass } from './lessons-pass.ts';
import { mergePass } from './merge.ts';
import { byTime, type Night, type NightEpisode, type NightLesson, RULES_VERSION } from './night.ts';
import { predictPass } from './predict.ts';
import { relatePass } from './relate.ts';
import { emptyReport, type SleepReport } from './report.ts';
import { rewordPass } from './reword.ts';
import { verifyPass } from './verify.ts';

/** What is kept of a lesson's sources for the next night: their sum, and the first and latest of them. */
function keptSumOf(entry: NightLesson): KeptSum {
  // The joined come after the sources read: the first and latest are the least and greatest by time.
  let first: NightEpisode | null = null;
  let latest: NightEpisode | null = null;
  for (const source of entry.sources) {
    if (!first || byTime(source, first) < 0) first = source;
    if (!latest || byTime(source, latest) > 0) latest = source;
  }
  return { state: entry.sum.state, firstSource: first?.id ?? null, latestSource: latest?.id ?? null };
}

/** What a consolidation reads before its passes: tonight's embedding and the lessons with their sources. */
interface Loaded {
  night: Night;
  embedded: Awaited<ReturnType<typeof embedPass>>;
}

async function loadNight(store: Store, config: Config, now: string): Promise<Loaded> {
  const { db } = store;
  const lessons = listLessons(db);
  const embedded = await embedPass(db, config, lessons);
  const report = emptyReport(now, embedded.space.name);
  report.fallback = embedded.fallback;
  report.embedded = embedded.fresh.length;
  report.corruptVectors = embedded.corrupt;
  if (embedded.corrupt > 0) {
    report.problems.push(`${embedded.corrupt} stored vectors were unreadable and were embedded again`);
  }
  const night: Night = {
    db,
    now,
    space: embedded.space,
    dims: embedded.dims,
    params: config.params,
    rules: RULES_VERSION,
    episodes: embedded.episodes,
    lessons: new Map(),
    tombstones: listTombstones(db),
    report,
  };
  for (const lesson of lessons) {
    const sources = embedded.sources.get(lesson.id) ?? [];
    const kept = embedded.sums.get(lesson.id);
    const entry: NightLesson = {
      lesson,
      sum: kept
        ? VectorSum.restore(kept.state)
        : VectorSum.of(
            sources.map((source) => source.vec),
            embedded.dims,
          ),
      keptCount: kept ? kept.state.count : null,
      sources,
      textVec: embedded.lessonTexts.get(lesson.id) ?? null,
      changed: false,
    };
    if (entry.sum.count === 0 && lesson.origin === 'self' && lesson.mergedInto === null) {
      report.problems.push(`lesson ${lesson.id} has no sources in this space; it is kept as it is`);
    }
    night.lessons.set(lesson.id, entry);
  }
  return { night, embedded };
}

/** Tonight's new vectors, written first inside the consolidation's transaction. */
function putFresh({ night, embedded }: Loaded): void {
  for (const item of embedded.fresh) {
    putVector(night.db, item.owner, item.id, embedded.space.name, item.vec.length, toBlob(item.vec));
  }
}

/** Every changed lesson, its kept sum and its vector, written last inside the same transaction. */
function saveNight({ night, embedded }: Loaded): void {
  const { db } = night;
  for (const entry of night.lessons.values()) {
    if (entry.changed) saveLesson(db, entry.lesson);
    const summed = entry.keptCount !== entry.sum.count;
    // Kept for the next night, so it reads this sum rather than every source again.
    if (summed) writeLessonSum(db, entry.lesson.id, embedded.space.name, keptSumOf(entry));
    // A lesson's vector is the mean of its sources': kept so recall and priming need not rebuild it.
    const vectorDue = summed || !embedded.lessonVectors.has(entry.lesson.id);
    if (vectorDue && entry.sum.count > 0 && entry.lesson.mergedInto === null) {
      const centroid = entry.sum.centroid();
      putVector(db, 'lesson', entry.lesson.id, embedded.space.name, centroid.length, toBlob(centroid));
    }
  }
}

function checkClock(store: Store, now: string): void {
  const last = lastSleep(store.db);
  if (last && last.at > now) {
    throw new RememError(
      'clock_backwards',
      `the clock reads ${now}, earlier than the last sleep at ${last.at}; nothing was changed (check REMEM_NOW)`,
    );
  }
}

/**
 * One night: a configured judge's verdicts, then embed, decay, lessons, merge, relate, verify, predict — then
 * `lessons.jsonl` and `morning.md`.
 * Every pass takes its time from the clock, so tests replay weeks of nights. The passes after the embedding
 * run in one transaction: a sleep stopped midway leaves the store as it was before it. A configured wording
 * model then words the night's new error and surprise lessons, each in a short transaction of its own.
 */
export async function sleep(store: Store, config: Config, clock: Clock): Promise<SleepReport> {
  const now = clock.iso();
  checkClock(store, now);
  // First, so that a correction the judge confirms is a lesson tonight; the judge is asked outside any transaction.
  const judged = config.judge
    ? await judgePass(store.db, config.judge, { now, params: config.params })
    : null;
  const loaded = await loadNight(store, config, now);
  const { night } = loaded;
  const { report } = night;
  report.judge = judged;
  report.holdout = { share: config.holdout, ...holdoutTally(store.db) };
  const sleepId = store.db.transaction(() => {
    putFresh(loaded);
    decayPass(night);
    lessonsPass(night);
    mergePass(night);
    relatePass(night);
    corroboratePass(night);
    verifyPass(night);
    predictPass(night);
    saveNight(loaded);
    return recordSleep(store.db, now, loaded.embedded.space.name, report);
  })();
  if (config.wording) {
    // A model call cannot run inside the night's transaction: each wording it gives is written on its own.
    report.wording = await rewordPass(night, config.wording, { budgetMs: config.params.wording.budgetMs });
    replaceSleepReport(store.db, sleepId, report);
  }
  writeMorningReport(store, report);
  return report;
}

/**
 * A session's end: what it taught becomes lessons now, so the next session meets them, not only tomorrow's.
 * Only the lessons pass runs (a new correction is a lesson, a surprise joins the lesson it repeats); decay,
 * merging, relations, verification and prediction stay the night's, and no sleep is recorded, so tonight
 * still sees these lessons as new. One transaction, like a night; no model is called.
 */
export async function settle(store: Store, config: Config, clock: Clock): Promise<SleepReport> {
  const now = clock.iso();
  checkClock(store, now);
  const loaded = await loadNight(store, config, now);
  store.db.transaction(() => {
    putFresh(loaded);
    lessonsPass(loaded.night);
    saveNight(loaded);
  })();
  return loaded.night.report;
}
