import type { Lesson } from '../core/index.ts';
import { lessonHash } from '../core/index.ts';
import { dot, dotSparse, sparseOf, VectorSum } from '../embed/index.ts';
import { appendAudit, assignEpisode, insertLesson } from '../store/index.ts';
import { cutsOf, type Night, type NightEpisode, type NightLesson, partitionOf } from './night.ts';
import { lineOf } from './report.ts';
import { disagree, wordsOfEpisode, wordsOfLesson } from './subject.ts';
import { acceptWording, lessonText } from './wording.ts';

interface Partition {
  lessons: NightLesson[];
  /** Surprises in no lesson yet, waiting for the same surprise to come again. */
  pending: NightEpisode[];
}

function byTime(a: NightEpisode, b: NightEpisode): number {
  return a.happenedAt < b.happenedAt ? -1 : a.happenedAt > b.happenedAt ? 1 : a.id - b.id;
}

/**
 * Pass 2: surprises not yet in a lesson join the lesson whose sources they resemble (average linkage over
 * its sources ≥ the linkage cut: +0.5 strength, +1 seen), or form new clusters in which every pair is over
 * the same-surprise cut. One correction is a lesson; an error or a stated surprise must repeat.
 * Linear in the episodes for a bounded number of lessons: a lesson's sources are one running sum.
 */
export function lessonsPass(night: Night): void {
  const cuts = cutsOf(night);
  const partitions = new Map<string, Partition>();
  const partition = (key: string): Partition => {
    let found = partitions.get(key);
    if (!found) {
      found = { lessons: [], pending: [] };
      partitions.set(key, found);
    }
    return found;
  };
  for (const entry of night.lessons.values()) {
    if (entry.lesson.mergedInto !== null || entry.lesson.review === 'rejected') continue;
    const first = entry.sources[0];
    partition(
      partitionOf({ kind: entry.lesson.kind, project: entry.lesson.project, tool: first?.tool ?? null }),
    ).lessons.push(entry);
  }
  const unassigned = [...night.episodes.values()].filter((episode) => episode.lessonId === null).sort(byTime);
  // Surprises already compared on an earlier night wait first; tonight's are then compared with all of them.
  const ordered = [
    ...unassigned.filter((episode) => !episode.fresh),
    ...unassigned.filter((episode) => episode.fresh),
  ];
  for (const episode of ordered) {
    const here = partition(partitionOf(episode));
    const best = bestLesson(here.lessons, episode);
    if (best && best.linkage >= cuts.linkage) {
      join(night, best.lesson, episode, best.linkage);
      continue;
    }
    if (episode.kind === 'correction') {
      // The person said so: one correction is a lesson on its own.
      const made = createLesson(night, [episode]);
      if (made) here.lessons.push(made);
      continue;
    }
    const cluster = episode.fresh ? clusterWith(episode, here.pending, cuts.same) : null;
    if (!cluster) {
      here.pending.push(episode);
      continue;
    }
    here.pending = here.pending.filter((other) => !cluster.includes(other));
    const made = createLesson(night, cluster);
    if (made) here.lessons.push(made);
  }
}

function bestLesson(
  lessons: readonly NightLesson[],
  episode: NightEpisode,
): { lesson: NightLesson; linkage: number } | null {
  const { vec } = episode;
  const sparse = sparseOf(vec);
  const words = wordsOfEpisode(episode);
  let best: { lesson: NightLesson; linkage: number } | null = null;
  for (const lesson of lessons) {
    const linkage =
      lesson.sum.count > 0
        ? lesson.sum.linkageToSparse(sparse)
        : lesson.textVec
          ? dot(lesson.textVec, vec)
          : 0;
    if (best && linkage <= best.linkage) continue;
    // Reading the words costs more than the linkage: only for a lesson that would win.
    if (disagree(episode.kind, words, wordsOfLesson(lesson))) continue;
    best = { lesson, linkage };
  }
  return best;
}

/**
 * A new cluster around `episode`: the most similar waiting surprise over the cut, then every other one
 * that is over the cut with each member already in (complete linkage, as a new cluster must be).
 */
function clusterWith(
  episode: NightEpisode,
  pending: readonly NightEpisode[],
  cut: number,
): NightEpisode[] | null {
  const candidates: { other: NightEpisode; similarity: number }[] = [];
  const words = wordsOfEpisode(episode);
  const sparse = sparseOf(episode.vec);
  for (const other of pending) {
    const similarity = dotSparse(other.vec, sparse);
    if (similarity < cut || disagree(episode.kind, words, wordsOfEpisode(other))) continue;
    candidates.push({ other, similarity });
  }
  if (candidates.length === 0) return null;
  candidates.sort((a, b) => b.similarity - a.similarity);
  const members = [episode];
  for (const { other } of candidates) {
    if (members.every((member) => member === episode || dot(member.vec, other.vec) >= cut))
      members.push(other);
  }
  return members.sort(byTime);
}

function join(night: Night, entry: NightLesson, episode: NightEpisode, linkage: number): void {
  const { lesson } = entry;
  episode.lessonId = lesson.id;
  entry.sources.push(episode);
  entry.sum.add(episode.vec);
  assignEpisode(night.db, episode.id, lesson.id);
  if (lesson.vetoedAt !== null) {
    // Vetoed: the surprise is kept with it, and the lesson is never written again.
    night.report.absorbedByVeto++;
    return;
  }
  lesson.seen += 1;
  lesson.strength += night.params.join.strength;
  lesson.updatedAt = night.now;
  if (lesson.archived) lesson.archived = false;
  entry.changed = true;
  const known = night.report.strengthened.find((line) => line.id === lesson.id);
  if (known) {
    known.by++;
    Object.assign(known, lineOf(lesson), { by: known.by });
  } else if (!night.report.learned.some((line) => line.id === lesson.id)) {
    night.report.strengthened.push({ ...lineOf(lesson), by: 1 });
  }
  appendAudit(night.db, {
    at: night.now,
    actor: 'sleep',
    action: 'join',
    rules: night.rules,
    lessonId: lesson.id,
    hash: lesson.hash,
    reason: `episode ${episode.id} joined at average linkage ${linkage.toFixed(3)}`,
    related: [episode.id],
  });
}

/** A new lesson from a cluster of sources, unless its text is tombstoned or reads as an instruction. */
export function createLesson(night: Night, sources: NightEpisode[]): NightLesson | null {
  const first = sources[0]!;
  const { text, refused } = acceptWording(null, lessonText(sources));
  const hash = lessonHash(first.kind, text);
  const tombstone = night.tombstones.get(hash);
  if (tombstone) {
    const holder = tombstone.lessonId === null ? undefined : night.lessons.get(tombstone.lessonId);
    if (holder) for (const source of sources) join(night, holder, source, 1);
    return null;
  }
  if (refused) {
    night.report.refused.push({ text, reason: refused });
    return null;
  }
  const happenedAt = sources[0]!.happenedAt;
  const lesson: Omit<Lesson, 'id'> = {
    hash,
    kind: first.kind,
    text,
    seen: sources.length,
    strength: 1 + night.params.join.strength * (sources.length - 1),
    // Corrections are about how the person works: personal unless a later rule narrows them.
    project: first.kind === 'correction' ? null : first.project,
    origin: 'self',
    review: 'approved',
    happenedAt,
    createdAt: night.now,
    updatedAt: night.now,
    touchedAt: night.now,
    decayedAt: night.now,
    archived: false,
    mergedInto: null,
    vetoedAt: null,
  };
  const id = insertLesson(night.db, { ...lesson, rules: night.rules });
  const entry: NightLesson = {
    lesson: { ...lesson, id },
    sum: VectorSum.of(
      sources.map((source) => source.vec),
      first.vec.length,
    ),
    sources: [...sources],
    textVec: null,
    changed: false,
  };
  night.lessons.set(id, entry);
  for (const source of sources) {
    source.lessonId = id;
    assignEpisode(night.db, source.id, id);
  }
  night.report.learned.push(lineOf(entry.lesson));
  appendAudit(night.db, {
    at: night.now,
    actor: 'sleep',
    action: 'add',
    rules: night.rules,
    lessonId: id,
    hash,
    reason:
      sources.length === 1
        ? `one ${first.kind} is a lesson`
        : `${sources.length} surprises over the same-surprise cut`,
    related: sources.map((source) => source.id),
  });
  return entry;
}
