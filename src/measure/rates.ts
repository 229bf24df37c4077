import { DAY_MS } from '../core/index.ts';
import { dot } from '../embed/index.ts';
import { share } from './fisher.ts';
import type { History, SessionInfo, Surprise } from './history.ts';

/** The Monday (UTC) that starts the week of `iso`, as YYYY-MM-DD. */
export function weekOf(iso: string): string {
  const at = new Date(iso);
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(day - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

export interface Split {
  /** Sessions in which the person (or the agent) could have met it again. */
  atRisk: number;
  repeated: number;
  rate: number | null;
}

export interface WeekOfRepeats {
  week: string;
  sessions: number;
  items: number;
  repeats: number;
  /** Repeats per session that week. */
  perSession: number | null;
}

export interface RepeatFigures {
  /** Corrections (or errors) in the history. */
  items: number;
  /** Those that said again (or met again) one from an earlier session. */
  repeats: number;
  share: number | null;
  /** Later sessions at risk of a repeat, before a lesson held what was said first, and after. */
  before: Split;
  after: Split;
  byWeek: WeekOfRepeats[];
}

/** What said or met the same thing: the first time, and every later one at the same-surprise cut. */
interface Meaning {
  first: Surprise;
  members: Surprise[];
}

/** Where one surprise can meet the same again: corrections anywhere, errors in one project and tool. */
function partitionOf(item: Surprise): string {
  if (item.kind === 'correction') return 'correction';
  return `${item.kind}\u0000${item.project ?? ''}\u0000${item.kind === 'error' ? (item.tool ?? '') : ''}`;
}

function split(atRisk: number, repeated: number): Split {
  return { atRisk, repeated, rate: share(repeated, atRisk) };
}

/** Sessions in time order, with their week. */
export function sessionsByStart(history: History): (SessionInfo & { week: string })[] {
  return [...history.sessions.values()]
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : 1))
    .map((session) => ({ ...session, week: weekOf(session.start) }));
}

/** Earlier items of another session that mean the same (the same-surprise cut, the same partition). */
export function restated(item: Surprise, earlier: readonly Surprise[], cut: number): Surprise[] {
  const key = partitionOf(item);
  return earlier.filter(
    (other) =>
      other.session !== item.session &&
      other.at < item.at &&
      partitionOf(other) === key &&
      dot(other.vec, item.vec) >= cut,
  );
}

/**
 * The repeat rate of one kind of surprise. A surprise repeats when one of an earlier session means the same.
 * Each first saying starts a meaning; every later session (of its project, for errors) is at risk of it coming
 * again, and counts as "after" once a lesson that held it existed when the session began (lessons.created_at).
 */
export function repeatFigures(history: History, kind: 'correction' | 'error'): RepeatFigures {
  const cut = history.params.sameSurprise.hashed;
  const items = history.surprises
    .filter((surprise) => surprise.kind === kind)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id - b.id));
  const meanings: Meaning[] = [];
  const meaningOf = new Map<number, Meaning>();
  const repeats = new Set<number>();
  for (const [index, item] of items.entries()) {
    const key = partitionOf(item);
    let best: { other: Surprise; similarity: number } | null = null;
    for (const other of items.slice(0, index)) {
      if (other.at >= item.at || partitionOf(other) !== key) continue;
      const similarity = dot(other.vec, item.vec);
      if (similarity < cut) continue;
      if (other.session !== item.session) repeats.add(item.id);
      if (!best || similarity > best.similarity) best = { other, similarity };
    }
    const meaning = best ? meaningOf.get(best.other.id) : undefined;
    if (meaning) meaning.members.push(item);
    const mine = meaning ?? { first: item, members: [item] };
    if (!meaning) meanings.push(mine);
    meaningOf.set(item.id, mine);
  }

  const sessions = sessionsByStart(history);
  const before = { atRisk: 0, repeated: 0 };
  const after = { atRisk: 0, repeated: 0 };
  for (const meaning of meanings) {
    const { first } = meaning;
    for (const session of sessions) {
      if (session.start <= first.at || session.id === first.session) continue;
      if (kind === 'error' && session.project !== first.project) continue;
      const held = meaning.members.some((member) => {
        if (member.at >= session.start || member.lessonId === null) return false;
        const lesson = history.lessons.get(member.lessonId);
        return lesson !== undefined && lesson.createdAt <= session.start;
      });
      const tally = held ? after : before;
      tally.atRisk++;
      if (meaning.members.some((member) => member.session === session.id)) tally.repeated++;
    }
  }

  const weeks = new Map<string, WeekOfRepeats>();
  const weekOfSession = new Map(sessions.map((session) => [session.id, session.week]));
  for (const session of sessions) {
    const week = weeks.get(session.week) ?? {
      week: session.week,
      sessions: 0,
      items: 0,
      repeats: 0,
      perSession: null,
    };
    week.sessions++;
    weeks.set(session.week, week);
  }
  for (const item of items) {
    const week = weeks.get(weekOfSession.get(item.session) ?? weekOf(item.at));
    if (!week) continue;
    week.items++;
    if (repeats.has(item.id)) week.repeats++;
  }
  const byWeek = [...weeks.values()]
    .sort((a, b) => (a.week < b.week ? -1 : 1))
    .map((week) => ({ ...week, perSession: share(week.repeats, week.sessions) }));

  return {
    items: items.length,
    repeats: repeats.size,
    share: share(repeats.size, items.length),
    before: split(before.atRisk, before.repeated),
    after: split(after.atRisk, after.repeated),
    byWeek,
  };
}

export interface WeekOfPredictions {
  week: string;
  made: number;
  confirmed: number;
  failed: number;
  open: number;
  /** Confirmed of those resolved. */
  accuracy: number | null;
}

export interface PredictionFigures {
  made: number;
  confirmed: number;
  failed: number;
  open: number;
  accuracy: number | null;
  byWeek: WeekOfPredictions[];
}

/** The share of predictions confirmed inside their window, by the week they were made. */
export function predictionFigures(history: History): PredictionFigures {
  const weeks = new Map<string, WeekOfPredictions>();
  for (const prediction of history.predictions) {
    const week = weekOf(prediction.madeAt);
    const row = weeks.get(week) ?? { week, made: 0, confirmed: 0, failed: 0, open: 0, accuracy: null };
    row.made++;
    row[prediction.state]++;
    weeks.set(week, row);
  }
  const byWeek = [...weeks.values()]
    .sort((a, b) => (a.week < b.week ? -1 : 1))
    .map((row) => ({ ...row, accuracy: share(row.confirmed, row.confirmed + row.failed) }));
  const total = (field: 'made' | 'confirmed' | 'failed' | 'open') =>
    byWeek.reduce((sum, row) => sum + row[field], 0);
  return {
    made: total('made'),
    confirmed: total('confirmed'),
    failed: total('failed'),
    open: total('open'),
    accuracy: share(total('confirmed'), total('confirmed') + total('failed')),
    byWeek,
  };
}

export interface WeekOfSurprises {
  week: string;
  sessions: number;
  errors: number;
  corrections: number;
  surprises: number;
  /** All three kinds, per session. */
  perSession: number | null;
}

/** Surprises (errors, corrections, stated surprises) per session, by the week each session began. */
export function surpriseFigures(history: History): {
  sessions: number;
  total: number;
  byWeek: WeekOfSurprises[];
} {
  const sessions = sessionsByStart(history);
  const weeks = new Map<string, WeekOfSurprises>();
  const weekOfSession = new Map(sessions.map((session) => [session.id, session.week]));
  for (const session of sessions) {
    const row = weeks.get(session.week) ?? {
      week: session.week,
      sessions: 0,
      errors: 0,
      corrections: 0,
      surprises: 0,
      perSession: null,
    };
    row.sessions++;
    weeks.set(session.week, row);
  }
  for (const surprise of history.surprises) {
    const row = weeks.get(weekOfSession.get(surprise.session) ?? weekOf(surprise.at));
    if (!row) continue;
    if (surprise.kind === 'error') row.errors++;
    else if (surprise.kind === 'correction') row.corrections++;
    else row.surprises++;
  }
  const byWeek = [...weeks.values()]
    .sort((a, b) => (a.week < b.week ? -1 : 1))
    .map((row) => ({
      ...row,
      perSession: share(row.errors + row.corrections + row.surprises, row.sessions),
    }));
  return { sessions: sessions.length, total: history.surprises.length, byWeek };
}
