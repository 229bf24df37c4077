import type { Lesson } from '../core/index.ts';
import type { Relation } from '../store/index.ts';
import type { Resolution, Validity } from './types.ts';

/** A lesson with what its predictions and sources say, as of the read's time. */
export interface LessonFacts {
  lesson: Lesson;
  confirmations: number;
  failures: number;
  open: number;
  lastConfirmedAt: string | null;
  lastFailedAt: string | null;
  /** When its latest source episode happened (null for a lesson with none, or when not needed). */
  lastSeenAt: string | null;
}

export interface Outcome {
  validity: Validity;
  resolution: Resolution | null;
  subject: string;
  conflictsWith: number[];
  supportedBy: number[];
  supersededBy: number | null;
  /** Approved, not vetoed, not merged: it takes part in deciding what holds. */
  accepted: boolean;
}

export interface Resolved {
  outcomes: Map<number, Outcome>;
  /** Pairs of lessons that hold and refute each other, with nothing to settle them: each becomes a question. */
  questions: [number, number][];
}

/** Whether a lesson takes part in deciding what holds (review, veto and merge; retention does not count). */
export function isAccepted(lesson: Lesson): boolean {
  return lesson.mergedInto === null && lesson.vetoedAt === null && lesson.review === 'approved';
}

/** Validity from a lesson's own evidence alone, before its subject is resolved (definitions in `types.ts`). */
export function evidenceValidity(facts: LessonFacts): 'current' | 'stale' | 'expired' | 'unknown' {
  const received = facts.lesson.origin !== 'self';
  if (received && facts.confirmations === 0 && facts.failures > 0) return 'expired';
  // A correction is the person's rule: a session that did not correct the agent again may be one where the
  // rule was followed, so an unmet prediction neither weakens it (verify) nor makes it stale. Replayed on the
  // development histories, staling corrections lost 6 of 27 caught repeats (`npm run bench -- replay --unseen`).
  if (facts.lastFailedAt !== null && facts.lesson.kind !== 'correction') {
    const since = [facts.lastConfirmedAt, facts.lastSeenAt].reduce<string>(
      (latest, at) => (at !== null && at > latest ? at : latest),
      '',
    );
    if (facts.lastFailedAt > since) return 'stale';
  }
  if (received && facts.confirmations === 0 && facts.lesson.review !== 'approved') return 'unknown';
  return 'current';
}

class Groups {
  private readonly parent = new Map<number, number>();
  find(id: number): number {
    let root = id;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    this.parent.set(id, root);
    return root;
  }
  join(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
}

function lastSeen(facts: LessonFacts): string {
  // ISO times: the later sorts last.
  return [facts.lastSeenAt ?? '', facts.lesson.happenedAt].sort()[1]!;
}

/** Most recently seen first, then most recently learned, then the higher id. */
function moreRecent(a: LessonFacts, b: LessonFacts): number {
  const sa = lastSeen(a);
  const sb = lastSeen(b);
  if (sa !== sb) return sa > sb ? -1 : 1;
  if (a.lesson.createdAt !== b.lesson.createdAt) return a.lesson.createdAt > b.lesson.createdAt ? -1 : 1;
  return b.lesson.id - a.lesson.id;
}

/**
 * The resolution ladder over every subject. A subject is a group of lessons joined by supersedes, refutes or
 * derived_from. Its survivors are the accepted lessons whose own evidence stands; then, in order:
 * one survivor → `only_surviving`; explicit supersedes leave one → `explicit_supersedes`; survivors that
 * refute each other → `unresolved_conflict`, no winner, each refuting pair a question; otherwise the one
 * with the most confirmed predictions → `verified_evidence`, else the most recently seen → `most_recent`.
 * Pure: the same facts and relations give the same answer.
 */
export function resolveTruth(facts: readonly LessonFacts[], relations: readonly Relation[]): Resolved {
  const byId = new Map(facts.map((entry) => [entry.lesson.id, entry]));
  const known = relations.filter((relation) => byId.has(relation.fromId) && byId.has(relation.toId));
  const accepted = (id: number) => isAccepted(byId.get(id)!.lesson);
  const evidence = new Map(facts.map((entry) => [entry.lesson.id, evidenceValidity(entry)]));

  const groups = new Groups();
  for (const relation of known) {
    if (relation.kind !== 'supports') groups.join(relation.fromId, relation.toId);
  }
  // A supersedes counts when the newer lesson is accepted. Of two that supersede each other, the later word stands.
  const supersedes = known.filter((relation) => relation.kind === 'supersedes' && accepted(relation.fromId));
  const reversed = (relation: Relation) =>
    supersedes.some(
      (other) => other.fromId === relation.toId && other.toId === relation.fromId && other.id > relation.id,
    );
  const supersededBy = new Map<number, number>();
  for (const relation of supersedes) {
    if (!reversed(relation)) supersededBy.set(relation.toId, relation.fromId);
  }
  const refutes = known.filter((relation) => relation.kind === 'refutes');
  const partnerLists = { refutes: new Map<number, Set<number>>(), supports: new Map<number, Set<number>>() };
  for (const relation of known) {
    if (relation.kind !== 'refutes' && relation.kind !== 'supports') continue;
    const lists = partnerLists[relation.kind];
    for (const [a, b] of [
      [relation.fromId, relation.toId],
      [relation.toId, relation.fromId],
    ] as const) {
      const list = lists.get(a) ?? new Set<number>();
      list.add(b);
      lists.set(a, list);
    }
  }
  const partners = (kind: 'refutes' | 'supports', id: number) =>
    [...(partnerLists[kind].get(id) ?? [])].sort((a, b) => a - b);

  const members = new Map<number, LessonFacts[]>();
  for (const entry of facts) {
    const root = groups.find(entry.lesson.id);
    const group = members.get(root);
    if (group) group.push(entry);
    else members.set(root, [entry]);
  }

  const outcomes = new Map<number, Outcome>();
  const questions: [number, number][] = [];
  for (const group of members.values()) {
    const first = group.reduce((a, b) => (a.lesson.id <= b.lesson.id ? a : b));
    const survivors = group.filter(
      (entry) => accepted(entry.lesson.id) && evidence.get(entry.lesson.id) === 'current',
    );
    const remaining = survivors.filter((entry) => !supersededBy.has(entry.lesson.id));
    let resolution: Resolution | null = null;
    let winner: LessonFacts | null = null;
    let conflicted = new Set<number>();
    if (remaining.length === 1) {
      winner = remaining[0]!;
      resolution = survivors.length === 1 ? 'only_surviving' : 'explicit_supersedes';
    } else if (remaining.length > 1) {
      const ids = new Set(remaining.map((entry) => entry.lesson.id));
      const pairs = refutes.filter((relation) => ids.has(relation.fromId) && ids.has(relation.toId));
      if (pairs.length > 0) {
        resolution = 'unresolved_conflict';
        conflicted = ids;
        const seen = new Set<string>();
        for (const relation of pairs) {
          const pair: [number, number] = [
            Math.min(relation.fromId, relation.toId),
            Math.max(relation.fromId, relation.toId),
          ];
          const key = pair.join(':');
          if (seen.has(key)) continue;
          seen.add(key);
          questions.push(pair);
        }
      } else {
        const most = Math.max(...remaining.map((entry) => entry.confirmations));
        const best = remaining.filter((entry) => entry.confirmations === most);
        if (best.length === 1) {
          winner = best[0]!;
          resolution = 'verified_evidence';
        } else {
          winner = [...remaining].sort(moreRecent)[0]!;
          resolution = 'most_recent';
        }
      }
    }
    for (const entry of group) {
      const { lesson } = entry;
      const own = evidence.get(lesson.id)!;
      let validity: Validity;
      let by: number | null = null;
      if (lesson.mergedInto !== null) {
        validity = 'superseded';
        by = lesson.mergedInto;
      } else if (supersededBy.has(lesson.id)) {
        validity = 'superseded';
        by = supersededBy.get(lesson.id)!;
      } else if (own !== 'current') {
        validity = own;
      } else if (!accepted(lesson.id) || winner?.lesson.id === lesson.id) {
        validity = 'current';
      } else if (conflicted.has(lesson.id)) {
        validity = 'contradicted';
      } else {
        validity = 'superseded';
        by = winner?.lesson.id ?? null;
      }
      outcomes.set(lesson.id, {
        validity,
        resolution,
        subject: first.lesson.hash,
        conflictsWith: partners('refutes', lesson.id),
        supportedBy: partners('supports', lesson.id),
        supersededBy: by,
        accepted: accepted(lesson.id),
      });
    }
  }
  questions.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { outcomes, questions };
}
