import type { Lesson } from '../core/index.ts';
import { lessonHash } from '../core/index.ts';
import { dot, LinkageIndex, type SparseVector, sparseOf, VectorSum } from '../embed/index.ts';
import { correctionProject } from '../episodes/index.ts';
import { appendAudit, assignEpisode, insertLesson } from '../store/index.ts';
import { retheme } from './merge.ts';
import { byTime, cutsOf, type Night, type NightEpisode, type NightLesson, partitionOf } from './night.ts';
import { lineOf, type SleepReport } from './report.ts';
import { disagree, wordsOfEpisode, wordsOfLesson } from './subject.ts';
import { acceptWording, lessonText } from './wording.ts';

interface Partition {
  lessons: NightLesson[];
  /** The lessons' sums by slot (slot i is `lessons[i]`), so a surprise meets them all in one query. */
  sums: LinkageIndex;
  /** Surprises in no lesson yet, waiting for the same surprise to come again; by slot, closed once taken. */
  pending: (NightEpisode | null)[];
  waiting: LinkageIndex;
}

/** What the pass keeps beside the night: where each lesson's sum is indexed, and the report's lines by lesson. */
interface Pass {
  night: Night;
  /** So that a join anywhere keeps the index equal to the lesson's sum. */
  slots: Map<NightLesson, { sums: LinkageIndex; slot: number }>;
  strengthened: Map<number, SleepReport['strengthened'][number]>;
  learned: Set<number>;
}

/**
 * Pass 2: surprises not yet in a lesson join the lesson whose sources they resemble (average linkage over
 * its sources ≥ the linkage cut: +0.5 strength, +1 seen), or form new clusters in which every pair is over
 * the same-surprise cut. One correction is a lesson; an error or a stated surprise must repeat.
 * Each surprise meets the lessons and the waiting surprises of its partition through a `LinkageIndex`: the
 * work is the dimensions it shares with them, not one dot product per lesson.
 */
export function lessonsPass(night: Night): void {
  const cuts = cutsOf(night);
  const { dims } = night;
  const pass: Pass = { night, slots: new Map(), strengthened: new Map(), learned: new Set() };
  const { slots } = pass;
  const partitions = new Map<string, Partition>();
  const partition = (key: string): Partition => {
    let found = partitions.get(key);
    if (!found) {
      found = { lessons: [], sums: new LinkageIndex(dims), pending: [], waiting: new LinkageIndex(dims) };
      partitions.set(key, found);
    }
    return found;
  };
  const keep = (here: Partition, entry: NightLesson): void => {
    const slot = here.sums.open();
    here.lessons.push(entry);
    slots.set(entry, { sums: here.sums, slot });
    // The sum's own float64 entries: the index's sums are the lessons' to the last bit.
    if (entry.sum.count > 0) here.sums.add(slot, entry.sum.sparseSum(), entry.sum.count);
    else if (entry.textVec) here.sums.add(slot, sparseOf(entry.textVec));
  };
  for (const entry of night.lessons.values()) {
    if (entry.lesson.mergedInto !== null || entry.lesson.review === 'rejected') continue;
    const first = entry.sources[0];
    keep(
      partition(
        partitionOf({ kind: entry.lesson.kind, project: entry.lesson.project, tool: first?.tool ?? null }),
      ),
      entry,
    );
  }
  const unassigned = [...night.episodes.values()].filter((episode) => episode.lessonId === null).sort(byTime);
  // Surprises already compared on an earlier night wait first; tonight's are then compared with all of them.
  const ordered = [
    ...unassigned.filter((episode) => !episode.fresh),
    ...unassigned.filter((episode) => episode.fresh),
  ];
  for (const episode of ordered) {
    const here = partition(partitionOf(episode));
    const sparse = sparseOf(episode.vec);
    const best = bestLesson(here, episode, sparse, cuts.linkage, night.params.truth.claimMaxTerms);
    if (best) {
      join(pass, best.lesson, episode, best.linkage, sparse);
      continue;
    }
    if (episode.kind === 'correction') {
      // The person said so: one correction is a lesson on its own.
      const made = createLesson(pass, [episode]);
      if (made) keep(here, made);
      continue;
    }
    const cluster = episode.fresh
      ? clusterWith(here, episode, sparse, cuts.same, night.params.truth.claimMaxTerms)
      : null;
    if (!cluster) {
      here.waiting.add(here.waiting.open(), sparse);
      here.pending.push(episode);
      continue;
    }
    for (const slot of cluster.slots) {
      here.pending[slot] = null;
      here.waiting.close(slot);
    }
    const made = createLesson(pass, cluster.members);
    if (made) keep(here, made);
  }
}

/** The lesson of greatest linkage at or over the cut whose words do not say the opposite; the first on a tie. */
function bestLesson(
  here: Partition,
  episode: NightEpisode,
  sparse: SparseVector,
  cut: number,
  maxTerms: number,
): { lesson: NightLesson; linkage: number } | null {
  const hits = here.sums.query(sparse, cut);
  if (hits.length === 0) return null;
  const words = wordsOfEpisode(episode);
  for (const hit of hits) {
    const lesson = here.lessons[hit.slot]!;
    if (!disagree(episode.kind, words, wordsOfLesson(lesson), maxTerms))
      return { lesson, linkage: hit.linkage };
  }
  return null;
}

/**
 * A new cluster around `episode`: the most similar waiting surprise over the cut, then every other one
 * that is over the cut with each member already in (complete linkage, as a new cluster must be).
 */
function clusterWith(
  here: Partition,
  episode: NightEpisode,
  sparse: SparseVector,
  cut: number,
  maxTerms: number,
): { members: NightEpisode[]; slots: number[] } | null {
  const words = wordsOfEpisode(episode);
  const candidates = here.waiting
    .query(sparse, cut)
    .filter((hit) => !disagree(episode.kind, words, wordsOfEpisode(here.pending[hit.slot]!), maxTerms));
  if (candidates.length === 0) return null;
  const members = [episode];
  const slots: number[] = [];
  for (const { slot } of candidates) {
    const other = here.pending[slot]!;
    if (members.every((member) => member === episode || dot(member.vec, other.vec) >= cut)) {
      members.push(other);
      slots.push(slot);
    }
  }
  return { members: members.sort(byTime), slots };
}

function join(
  pass: Pass,
  entry: NightLesson,
  episode: NightEpisode,
  linkage: number,
  sparse: SparseVector = sparseOf(episode.vec),
): void {
  const { night } = pass;
  const { lesson } = entry;
  const indexed = pass.slots.get(entry);
  if (indexed) {
    // A received lesson's own text stood in for sources it did not have: the first source replaces it.
    if (entry.sum.count === 0 && entry.textVec) indexed.sums.subtract(indexed.slot, sparseOf(entry.textVec));
    indexed.sums.add(indexed.slot, sparse);
  }
  episode.lessonId = lesson.id;
  entry.sources.push(episode);
  entry.sum.add(episode.vec);
  assignEpisode(night.db, episode.id, lesson.id);
  if (lesson.vetoedAt !== null) {
    // Vetoed: the surprise is kept with it, and the lesson is never written again.
    night.report.absorbedByVeto++;
    return;
  }
  const previousHash = lesson.hash;
  lesson.seen += 1;
  lesson.strength += night.params.join.strength;
  lesson.updatedAt = night.now;
  retheme(night, entry);
  if (lesson.archived) lesson.archived = false;
  entry.changed = true;
  const known = pass.strengthened.get(lesson.id);
  if (known) {
    known.by++;
    Object.assign(known, lineOf(lesson), { by: known.by });
  } else if (!pass.learned.has(lesson.id)) {
    const line = { ...lineOf(lesson), by: 1 };
    night.report.strengthened.push(line);
    pass.strengthened.set(lesson.id, line);
  }
  appendAudit(night.db, {
    at: night.now,
    actor: 'sleep',
    action: 'join',
    rules: night.rules,
    lessonId: lesson.id,
    hash: lesson.hash,
    reason: `episode ${episode.id} joined at average linkage ${linkage.toFixed(3)}${
      previousHash !== lesson.hash ? `; was ${previousHash}` : ''
    }`,
    related: [episode.id],
  });
}

/** A new lesson from a cluster of sources, unless its text is tombstoned or reads as an instruction. */
function createLesson(pass: Pass, sources: NightEpisode[]): NightLesson | null {
  const { night } = pass;
  const first = sources[0]!;
  const { text, refused } = acceptWording(null, lessonText(sources));
  const hash = lessonHash(first.kind, text);
  const tombstone = night.tombstones.get(hash);
  if (tombstone) {
    const holder = tombstone.lessonId === null ? undefined : night.lessons.get(tombstone.lessonId);
    if (holder) for (const source of sources) join(pass, holder, source, 1);
    return null;
  }
  if (refused) {
    night.report.refused.push({ text, reason: refused });
    return null;
  }
  const happenedAt = sources[0]!.happenedAt;
  const held = sources.map((source) => source.detail['held']).find((why) => typeof why === 'string');
  const lesson: Omit<Lesson, 'id'> = {
    hash,
    kind: first.kind,
    text,
    seen: sources.length,
    strength: 1 + night.params.join.strength * (sources.length - 1),
    // A correction is about how the person works, unless it names its project or was remembered in one.
    project: first.kind === 'correction' ? correctionProject(first) : first.project,
    origin: 'self',
    // A remembered event screened as a possible injection waits for a person, as a received lesson does.
    review: held === undefined ? 'approved' : 'pending_review',
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
    keptCount: null,
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
  pass.learned.add(id);
  appendAudit(night.db, {
    at: night.now,
    actor: 'sleep',
    action: 'add',
    rules: night.rules,
    lessonId: id,
    hash,
    reason:
      (sources.length === 1
        ? `one ${first.kind} is a lesson`
        : `${sources.length} surprises over the same-surprise cut`) +
      (held === undefined ? '' : `; held for review: a remembered event's ${held}`),
    related: sources.map((source) => source.id),
  });
  return entry;
}
