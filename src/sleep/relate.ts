import { hashedVector, LinkageIndex, sparseOf } from '../embed/index.ts';
import { appendAudit, findRelation, insertRelation, lastSleep } from '../store/index.ts';
import type { Night, NightLesson } from './night.ts';
import { makesClaims, type Polarity, polarityOf, wordsOfLesson } from './subject.ts';

/** When a lesson's words were last said: its latest source's time, or when it happened. */
function spokenAt(entry: NightLesson): string {
  return entry.sources[entry.sources.length - 1]?.happenedAt ?? entry.lesson.happenedAt;
}

function related(night: Night, a: number, b: number): boolean {
  return (['supersedes', 'refutes', 'supports'] as const).some(
    (kind) =>
      findRelation(night.db, kind, a, b) !== undefined || findRelation(night.db, kind, b, a) !== undefined,
  );
}

/**
 * Pass 3b: lessons about one subject that say opposite things are related, once. Two corrections of the
 * person's own: the newer supersedes the older (the person changed their mind, and their latest word
 * stands). Otherwise — stated surprises, or a lesson received from another memory against one of ours —
 * they refute each other, and what reaches an agent is the question, not a side.
 * Subject: hashed cosine of their words ≥ `truth.subjectCut`; opposite: different polarity (`subject.ts`).
 * Only pairs with a lesson new or changed since the last sleep are compared; a pair already related either
 * way (by sleep or by the person) is left as it is.
 */
export function relatePass(night: Night): void {
  const since = lastSleep(night.db)?.at ?? '';
  const dims = night.params.hashedDims;
  const live = [...night.lessons.values()].filter(
    ({ lesson }) =>
      lesson.mergedInto === null &&
      lesson.vetoedAt === null &&
      lesson.review !== 'rejected' &&
      makesClaims(lesson.kind),
  );
  const words = live.map((entry) => wordsOfLesson(entry));
  const vectors = words.map((text) => sparseOf(hashedVector(text, dims)));
  const maxTerms = night.params.truth.claimMaxTerms;
  const polarities = words.map((text) => polarityOf(text, maxTerms));
  const fresh = (entry: NightLesson) => entry.lesson.createdAt > since || entry.lesson.updatedAt > since;
  // Pairs of one kind and one subject, of opposite polarity, with a fresh side, each found once through the index:
  // a lesson meets only lessons of the other polarity (the others could never be related), a fresh one every
  // such lesson listed before it, any other only the fresh ones. Then taken in the order of the list.
  const indexes = new Map<
    string,
    { all: LinkageIndex; fresh: LinkageIndex; slots: number[]; freshSlots: number[] }
  >();
  const indexOf = (kind: string, polarity: Polarity) => {
    const key = `${kind}\u0000${polarity}`;
    let found = indexes.get(key);
    if (!found) {
      found = { all: new LinkageIndex(dims), fresh: new LinkageIndex(dims), slots: [], freshSlots: [] };
      indexes.set(key, found);
    }
    return found;
  };
  const pairs: { i: number; j: number; subject: number }[] = [];
  live.forEach((entry, j) => {
    const polarity = polarities[j]!;
    // Words that make no single claim are related to nothing.
    if (polarity === 'none') return;
    const own = indexOf(entry.lesson.kind, polarity);
    const other = indexOf(entry.lesson.kind, polarity === 'positive' ? 'negative' : 'positive');
    const isFresh = fresh(entry);
    const [index, list] = isFresh ? [other.all, other.slots] : [other.fresh, other.freshSlots];
    for (const { slot, linkage } of index.query(vectors[j]!, night.params.truth.subjectCut))
      pairs.push({ i: list[slot]!, j, subject: linkage });
    own.all.add(own.all.open(), vectors[j]!);
    own.slots.push(j);
    if (isFresh) {
      own.fresh.add(own.fresh.open(), vectors[j]!);
      own.freshSlots.push(j);
    }
  });
  for (const { i, j, subject } of pairs.sort((x, y) => x.i - y.i || x.j - y.j)) {
    const a = live[i]!;
    const b = live[j]!;
    if (a.lesson.project !== null && b.lesson.project !== null && a.lesson.project !== b.lesson.project)
      continue;
    if (related(night, a.lesson.id, b.lesson.id)) continue;
    const [older, newer] =
      spokenAt(a) < spokenAt(b) || (spokenAt(a) === spokenAt(b) && a.lesson.id < b.lesson.id)
        ? [a, b]
        : [b, a];
    const ours = older.lesson.origin === 'self' && newer.lesson.origin === 'self';
    const kind = older.lesson.kind === 'correction' && ours ? 'supersedes' : 'refutes';
    const reason = `same subject (hashed cosine ${subject.toFixed(3)}), opposite polarity`;
    insertRelation(night.db, {
      kind,
      fromId: newer.lesson.id,
      toId: older.lesson.id,
      actor: 'sleep',
      rules: night.rules,
      reason,
      happenedAt: spokenAt(newer),
      recordedAt: night.now,
    });
    appendAudit(night.db, {
      at: night.now,
      actor: 'sleep',
      action: kind === 'supersedes' ? 'supersede' : 'relate',
      rules: night.rules,
      lessonId: newer.lesson.id,
      hash: newer.lesson.hash,
      reason: `${kind} lesson ${older.lesson.id}: ${reason}`,
      related: [older.lesson.id],
    });
    night.report.related.push({ kind, from: newer.lesson.id, to: older.lesson.id });
  }
}
