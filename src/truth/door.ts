import type { Db, InjectionMoment } from '../store/index.ts';
import { recordInjection } from './injections.ts';
import { type StartBudget, sessionStart } from './start-block.ts';
import type { ReadScope, Visible } from './types.ts';
import { visibleToAgent } from './visible.ts';

/** Who is shown what, and when: the audit row's own fields. */
export interface Showing {
  now: string;
  scope: ReadScope;
  moment: InjectionMoment;
  session: string | null;
}

/**
 * What a reader makes of everything an agent may see: the value it hands on, the hashes of the lessons in it
 * (a question names both of its lessons), and, when not everything reached the agent, why not, each reason
 * with how many. `considered` defaults to how many items the agent could have been shown.
 */
export interface Choice<T> {
  value: T;
  lessonHashes: string[];
  considered?: number;
  reasons?: Record<string, number>;
}

/** The lessons an item names: a lesson its own, a question both of its sides. */
export function hashesOf(items: readonly Visible[]): string[] {
  return items.flatMap((item) =>
    item.type === 'lesson' ? [item.lesson.hash] : item.lessons.map((lesson) => lesson.hash),
  );
}

/** Every item, nothing held back. */
export function everything(visible: Visible[]): Choice<Visible[]> {
  return { value: visible, lessonHashes: hashesOf(visible) };
}

/** What session start loads (`sessionStart`); the rest dropped as over its budget. */
export function atSessionStart(budget: StartBudget): (visible: Visible[]) => Choice<Visible[]> {
  return (visible) => {
    const shown = sessionStart(visible, budget);
    const dropped = visible.length - shown.length;
    return {
      value: shown,
      lessonHashes: hashesOf(shown),
      reasons: dropped > 0 ? { over_session_start_budget: dropped } : {},
    };
  };
}

/**
 * The one door through which lesson text reaches an agent: what it may see for a scope (`visibleToAgent`),
 * what the reader makes of it (`choose`: a budget, a ranking, a file written), and the audit row of what it
 * was shown, in one transaction, so nothing is shown that is not audited and nothing audited that was not
 * read in the same state. The hooks, which never write the store, log what they show and the nightly job
 * moves the log here (`prime/drain.ts`); every other path calls this.
 */
export function showToAgent(db: Db, showing: Showing): Visible[];
export function showToAgent<T>(db: Db, showing: Showing, choose: (visible: Visible[]) => Choice<T>): T;
export function showToAgent(
  db: Db,
  showing: Showing,
  choose: (visible: Visible[]) => Choice<unknown> = everything,
): unknown {
  return db.transaction(() => {
    const visible = visibleToAgent(db, { now: showing.now, scope: showing.scope });
    const choice = choose(visible);
    const considered = Math.max(choice.considered ?? visible.length, choice.lessonHashes.length);
    const reasons = choice.reasons ?? {};
    const dropped = Math.min(
      considered,
      Object.values(reasons).reduce((sum, n) => sum + n, 0),
    );
    recordInjection(db, {
      at: showing.now,
      session: showing.session === null ? null : showing.session.slice(0, 200),
      moment: showing.moment,
      shown: true,
      lessonHashes: choice.lessonHashes,
      considered,
      dropped,
      reasons,
    });
    return choice.value;
  })();
}
