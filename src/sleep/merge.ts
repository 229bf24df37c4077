import { append, lessonHash } from '../core/index.ts';
import { LinkageIndex, type Subjects, sharedCommands, subjectsOf, VectorSum } from '../embed/index.ts';
import { appendAudit, insertRelation, movePredictions, moveSources, oldestSources } from '../store/index.ts';
import { byTime, cutsOf, type Night, type NightEpisode, type NightLesson, partitionOf } from './night.ts';
import { lineOf } from './report.ts';
import { disagree, makesClaims, polarityOf, wordsOfLesson } from './subject.ts';
import { givesRule, THEME_QUOTES, themeText } from './wording.ts';

/**
 * Pass 3: lessons of one kind whose sources mean the same thing become one theme: the older lesson takes
 * in the other's sources, and a correction theme quotes each correction in order. The test is average
 * linkage over every pair of sources, never the cosine of centroids: centroids drift towards what all
 * corrections share and would merge distinct themes.
 */
export function mergePass(night: Night): void {
  const { linkage: cut } = cutsOf(night);
  const space = night.space.kind === 'hashed' ? 'hashed' : 'model';
  const commandCut = Math.min(cut, night.params.linkageSameCommand[space]);
  const ruleCut = Math.min(commandCut, night.params.linkageSameRule[space]);
  const subjects = new Map<NightLesson, Subjects>();
  const subjectsOfEntry = (entry: NightLesson) => {
    let found = subjects.get(entry);
    if (!found) {
      found = subjectsOf(entry.lesson.text);
      subjects.set(entry, found);
    }
    return found;
  };
  // Corrections that name a command in common are one theme at a lower cut (params.linkageSameCommand), and lower
  // still when each states a rule about it (params.linkageSameRule).
  const cutFor = (a: NightLesson, b: NightLesson) => {
    if (a.lesson.kind !== 'correction' || !sharedCommands(subjectsOfEntry(a), subjectsOfEntry(b))) return cut;
    return givesRule(a.lesson.text) && givesRule(b.lesson.text) ? ruleCut : commandCut;
  };
  const holders = heldBy(night);
  const groups = new Map<string, NightLesson[]>();
  for (const entry of night.lessons.values()) {
    const { lesson } = entry;
    if (lesson.mergedInto !== null || lesson.vetoedAt !== null || lesson.archived || entry.sum.count === 0)
      continue;
    if (lesson.origin !== 'self') continue;
    const key = partitionOf({
      kind: lesson.kind,
      project: lesson.project,
      tool: entry.sources[0]?.tool ?? null,
    });
    const group = groups.get(key) ?? [];
    group.push(entry);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const pairs: { a: NightLesson; b: NightLesson; i: number; j: number; linkage: number }[] = [];
    // Every pair over the cut, each once: a lesson meets, through the index, those listed before it. Lessons that
    // make claims meet only those of their own polarity and those of none: the others disagree with them.
    const claims = makesClaims(group[0]!.lesson.kind);
    const maxTerms = night.params.truth.claimMaxTerms;
    const indexes = new Map<string, { sums: LinkageIndex; members: number[] }>();
    group.forEach((b, j) => {
      const key = claims ? polarityOf(wordsOfLesson(b), maxTerms) : '';
      let own = indexes.get(key);
      if (!own) {
        own = { sums: new LinkageIndex(group[0]!.sum.dims), members: [] };
        indexes.set(key, own);
      }
      const sparse = b.sum.sparseSum();
      const named = b.lesson.kind === 'correction' && subjectsOfEntry(b).terms.size > 0;
      const lowest = !named ? cut : givesRule(b.lesson.text) ? ruleCut : commandCut;
      for (const [other, met] of indexes) {
        if (other !== key && other !== 'none' && key !== 'none') continue;
        for (const { slot, linkage } of met.sums.query(sparse, lowest, b.sum.count)) {
          const i = met.members[slot]!;
          const a = group[i]!;
          if (linkage < cutFor(a, b)) continue;
          if (disagree(a.lesson.kind, wordsOfLesson(a), wordsOfLesson(b), maxTerms)) continue;
          pairs.push({ a, b, i, j, linkage });
        }
      }
      own.sums.add(own.sums.open(), sparse, b.sum.count);
      own.members.push(j);
    });
    pairs.sort((x, y) => y.linkage - x.linkage || x.i - y.i || x.j - y.j);
    for (const pair of pairs) {
      const a = rootOf(night, pair.a);
      const b = rootOf(night, pair.b);
      if (a === b) continue;
      // Linkage again: either side may have grown by an earlier merge tonight.
      const linkage = a.sum.linkageTo(b.sum);
      if (linkage < cutFor(a, b) || disagree(a.lesson.kind, wordsOfLesson(a), wordsOfLesson(b), maxTerms))
        continue;
      const [older, newer] = a.lesson.happenedAt <= b.lesson.happenedAt ? [a, b] : [b, a];
      mergeInto(night, older, newer, linkage, holders);
    }
  }
}

function rootOf(night: Night, entry: NightLesson): NightLesson {
  let current = entry;
  while (current.lesson.mergedInto !== null) {
    const next = night.lessons.get(current.lesson.mergedInto);
    if (!next) break;
    current = next;
  }
  return current;
}

/**
 * A correction lesson of the memory's own that stands for more than one correction quotes them as one theme, the
 * oldest first, and counts every one: after a join or a merge its text would otherwise quote only the first.
 */
export function retheme(night: Night, entry: NightLesson): void {
  const { lesson } = entry;
  if (lesson.kind !== 'correction' || lesson.origin !== 'self' || entry.sum.count < 2) return;
  lesson.text = themeText(oldestSources(night.db, lesson.id, THEME_QUOTES), entry.sum.count);
  lesson.hash = lessonHash(lesson.kind, lesson.text);
}

/**
 * Tonight's episodes by the lesson that holds them, for the merges to move: looking them up among every episode of
 * the night at each merge made the pass grow with the square of the episodes (100,000 episodes: 2.6 s in that loop
 * alone, 15 times what 50,000 took).
 */
function heldBy(night: Night): Map<number, NightEpisode[]> {
  const holders = new Map<number, NightEpisode[]>();
  for (const episode of night.episodes.values()) {
    if (episode.lessonId === null) continue;
    const held = holders.get(episode.lessonId);
    if (held) held.push(episode);
    else holders.set(episode.lessonId, [episode]);
  }
  return holders;
}

function mergeInto(
  night: Night,
  theme: NightLesson,
  part: NightLesson,
  linkage: number,
  holders: Map<number, NightEpisode[]>,
): void {
  const previousHash = theme.lesson.hash;
  // Every source moves, read or not tonight; the sums add up to what adding each source would give.
  moveSources(night.db, part.lesson.id, theme.lesson.id);
  const moved = holders.get(part.lesson.id);
  if (moved) {
    for (const episode of moved) episode.lessonId = theme.lesson.id;
    const held = holders.get(theme.lesson.id);
    if (!held) holders.set(theme.lesson.id, moved);
    else append(held, moved);
    holders.delete(part.lesson.id);
  }
  append(theme.sources, part.sources);
  theme.sum.addSum(part.sum);
  part.sources = [];
  part.sum = new VectorSum(part.sum.dims);
  theme.sources.sort(byTime);
  const stronger = Math.max(theme.lesson.strength, part.lesson.strength);
  const weaker = theme.lesson.strength >= part.lesson.strength ? part.lesson : theme.lesson;
  theme.lesson.strength = stronger + night.params.join.strength * weaker.seen;
  theme.lesson.seen += part.lesson.seen;
  theme.lesson.updatedAt = night.now;
  retheme(night, theme);
  theme.changed = true;
  part.lesson.mergedInto = theme.lesson.id;
  part.lesson.updatedAt = night.now;
  part.changed = true;
  movePredictions(night.db, part.lesson.id, theme.lesson.id);
  insertRelation(night.db, {
    kind: 'derived_from',
    fromId: theme.lesson.id,
    toId: part.lesson.id,
    actor: 'sleep',
    rules: night.rules,
    reason: `merged: average linkage ${linkage.toFixed(3)}`,
    happenedAt: part.lesson.happenedAt,
    recordedAt: night.now,
  });
  night.report.merged.push({ into: lineOf(theme.lesson), from: [part.lesson.id] });
  appendAudit(night.db, {
    at: night.now,
    actor: 'sleep',
    action: 'merge',
    rules: night.rules,
    lessonId: theme.lesson.id,
    hash: theme.lesson.hash,
    reason: `sources mean the same thing: average linkage ${linkage.toFixed(3)}${
      previousHash !== theme.lesson.hash ? `; was ${previousHash}` : ''
    }`,
    related: [part.lesson.id],
  });
}
