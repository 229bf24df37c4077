import type { EpisodeDraft } from '../core/index.ts';
import { cleanDeep } from './episodes.ts';
import type { Db } from './open.ts';

/** A message kept for the judge: the correction episode it would be, and the learned detector's score. */
export interface Candidate {
  key: string;
  score: number;
  draft: EpisodeDraft;
  tries: number;
}

/**
 * Makes the open candidates of one session the given ones, matched by key. A verdict stays with its key: a "no"
 * is not asked again, and a "yes" is never removed, as the correction it made is derived from it again.
 */
export function replaceSessionCandidates(
  db: Db,
  scope: { agent: string; session: string },
  candidates: readonly { score: number; draft: EpisodeDraft }[],
  now: string,
): void {
  const keep = new Set(candidates.map(({ draft }) => draft.key));
  const stale = (
    db
      .prepare(`SELECT key FROM candidates WHERE agent = ? AND session = ? AND verdict IS NOT 'yes'`)
      .all(scope.agent, scope.session) as { key: string }[]
  ).filter((row) => !keep.has(row.key));
  const remove = db.prepare('DELETE FROM candidates WHERE key = ?');
  for (const row of stale) remove.run(row.key);
  const upsert = db.prepare(`INSERT INTO candidates (key, agent, session, score, draft, found_at)
     VALUES (@key, @agent, @session, @score, @draft, @now)
     ON CONFLICT (key) DO UPDATE SET score = excluded.score, draft = excluded.draft WHERE verdict IS NULL`);
  for (const { score, draft } of candidates) {
    upsert.run({
      key: draft.key,
      agent: scope.agent,
      session: scope.session,
      score,
      draft: JSON.stringify(cleanDeep(draft)),
      now,
    });
  }
}

/** The corrections the judge confirmed in one session, as episode drafts. */
export function confirmedCandidates(db: Db, scope: { agent: string; session: string }): EpisodeDraft[] {
  const rows = db
    .prepare(`SELECT draft FROM candidates WHERE agent = ? AND session = ? AND verdict = 'yes'`)
    .all(scope.agent, scope.session) as { draft: string }[];
  return rows.map((row) => JSON.parse(row.draft) as EpisodeDraft);
}

/** Candidates not yet judged and tried fewer than `maxTries` nights: the closest to the threshold first. */
export function pendingCandidates(db: Db, options: { limit: number; maxTries: number }): Candidate[] {
  const rows = db
    .prepare(
      `SELECT key, score, draft, tries FROM candidates WHERE verdict IS NULL AND tries < ?
       ORDER BY score DESC, found_at DESC, key LIMIT ?`,
    )
    .all(options.maxTries, Math.max(0, Math.floor(options.limit))) as {
    key: string;
    score: number;
    draft: string;
    tries: number;
  }[];
  return rows.map((row) => ({ ...row, draft: JSON.parse(row.draft) as EpisodeDraft }));
}

/** How many candidates still wait for a verdict (tried fewer than `maxTries` nights). */
export function countPendingCandidates(db: Db, maxTries: number): number {
  const row = db
    .prepare('SELECT COUNT(*) AS n FROM candidates WHERE verdict IS NULL AND tries < ?')
    .get(maxTries) as { n: number };
  return row.n;
}

/** The judge's answer; a confirmed candidate keeps the draft it became, as the episode holds it. */
export function recordVerdict(
  db: Db,
  key: string,
  verdict: { answer: 'yes' | 'no'; at: string; by: string; draft?: EpisodeDraft },
): void {
  db.prepare(
    `UPDATE candidates SET verdict = @answer, judged_at = @at, judged_by = @by, tries = tries + 1,
       draft = COALESCE(@draft, draft), last_error = NULL WHERE key = @key`,
  ).run({
    key,
    answer: verdict.answer,
    at: verdict.at,
    by: verdict.by,
    draft: verdict.draft ? JSON.stringify(cleanDeep(verdict.draft)) : null,
  });
}

/** A try that gave no verdict (the server failed, or the answer was neither yes nor no): tried again next night. */
export function recordFailedTry(db: Db, key: string, error: string): void {
  db.prepare('UPDATE candidates SET tries = tries + 1, last_error = ? WHERE key = ?').run(error, key);
}
