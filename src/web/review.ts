import type { Params } from '../core/index.ts';
import { type CommonsState, computeStates, storedRecord } from '../protocol/index.ts';
import { type Db, heldOrigins, recordsOf } from '../store/index.ts';
import { listReviewQueue, projectTruth } from '../truth/index.ts';
import { type LessonSummary, summaryOf } from './lessons.ts';

/** A lesson's state among the memories whose records this one holds (protocol §3), as every holder computes it. */
export interface CommonsView {
  state: CommonsState;
  confirmations: number;
  confirmers: string[];
  publishers: string[];
  lastConfirmed: string | null;
  revokedBy: 'origin' | 'quorum' | null;
}

export interface ReceivedLesson {
  lesson: LessonSummary;
  /** Null when no record of it is held (it came in a file that was not kept). */
  commons: CommonsView | null;
}

export interface ReviewView {
  /** Lessons from other memories, held from every agent until a person approves them. */
  queue: LessonSummary[];
  received: ReceivedLesson[];
  /** Approving stays at the terminal: what to type there. */
  howToApprove: string[];
}

export const howToApprove = [
  'remem review',
  'remem review approve ID',
  'remem review reject ID',
  'remem review edit ID --text "the wording you hold true"',
];

function commonsStates(db: Db, options: { now: string; params: Params }): Map<string, CommonsView> {
  const records = heldOrigins(db).flatMap((held) =>
    recordsOf(db, held.origin).map((record) => storedRecord(record.line)),
  );
  const states = computeStates(records, {
    now: options.now,
    N: options.params.commons.confirmations,
    W_days: options.params.commons.fadeDays,
  });
  return new Map(
    [...states.values()].map((state) => [
      state.hash,
      {
        state: state.state,
        confirmations: state.confirmations,
        confirmers: state.confirmers,
        publishers: state.publishers,
        lastConfirmed: state.lastConfirmed,
        revokedBy: state.revokedBy,
      },
    ]),
  );
}

/** The review queue and every lesson received from another memory, with its commons state. */
export function reviewView(db: Db, options: { now: string; params: Params }): ReviewView {
  const rows = projectTruth(db, { now: options.now });
  const byId = new Map(rows.map((row) => [row.lesson.id, row]));
  const queue = listReviewQueue(db, { now: options.now }).flatMap((item) => {
    const row = byId.get(item.lesson.id);
    return row ? [summaryOf(db, row)] : [];
  });
  const states = commonsStates(db, options);
  const received = rows
    .filter((row) => row.lesson.origin !== 'self')
    .map((row) => ({ lesson: summaryOf(db, row), commons: states.get(row.lesson.hash) ?? null }));
  return { queue, received, howToApprove };
}
