import type { HandbackAnswer, HandbackKind, OfferDraft } from '../core/index.ts';
import type { Db } from './open.ts';

/** Makes the stored offers of one session exactly the given drafts, matched by key (as episodes). */
export function replaceSessionOffers(
  db: Db,
  scope: { agent: string; session: string },
  drafts: readonly OfferDraft[],
  now: string,
): void {
  const keep = new Set(drafts.map((draft) => draft.key));
  const stale = (
    db
      .prepare('SELECT id, key FROM offers WHERE agent = ? AND session = ?')
      .all(scope.agent, scope.session) as {
      id: number;
      key: string;
    }[]
  ).filter((row) => !keep.has(row.key));
  for (const row of stale) db.prepare('DELETE FROM offers WHERE id = ?').run(row.id);
  const upsert =
    db.prepare(`INSERT INTO offers (key, kind, agent, session, project, happened_at, recorded_at, reply_tail, answer, answer_text)
     VALUES (@key, @kind, @agent, @session, @project, @happenedAt, @now, @replyTail, @answer, @answerText)
     ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, project = excluded.project,
       happened_at = excluded.happened_at, reply_tail = excluded.reply_tail, answer = excluded.answer,
       answer_text = excluded.answer_text`);
  for (const draft of drafts) upsert.run({ ...draft, now });
}

export interface DelegationTally {
  kind: HandbackKind;
  answer: HandbackAnswer | 'unanswered';
  count: number;
}

/** How often replies handed back, and how the person answered: the owner's view, never an agent's. */
export function delegationTally(db: Db): DelegationTally[] {
  return db
    .prepare(
      `SELECT kind, COALESCE(answer, 'unanswered') AS answer, COUNT(*) AS count FROM offers
       GROUP BY kind, answer ORDER BY kind, answer`,
    )
    .all() as DelegationTally[];
}

export interface OfferMoment {
  session: string;
  /** When the reply that handed back happened. */
  at: string;
  kind: HandbackKind;
  answer: HandbackAnswer | null;
}

/** Every offer, in the order they happened. */
export function offerMoments(db: Db): OfferMoment[] {
  return db
    .prepare('SELECT session, happened_at AS at, kind, answer FROM offers ORDER BY happened_at')
    .all() as OfferMoment[];
}
