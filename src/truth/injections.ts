import { RememError } from '../core/index.ts';
import { type Db, INJECTION_MOMENTS, type Injection, insertInjection } from '../store/index.ts';

const moments: ReadonlySet<string> = new Set(INJECTION_MOMENTS);
const lessonHash = /^[0-9a-f]{32}$/;
const reasonName = /^[a-z][a-z0-9_]{0,39}$/;

function count(value: number): boolean {
  return Number.isInteger(value) && value >= 0;
}

/**
 * Audits one injection — a prime, a render, a proxy injection, an MCP `lessons` answer, a recall — without
 * its payload: the session, the moment, the hashes of the lessons shown (or that would have been, for a
 * session held out), how many were weighed and dropped, and why. Anything that could carry text other than
 * a lesson hash or a short reason name is refused, so the log never becomes a copy of what it audits.
 */
export function recordInjection(db: Db, row: Injection): void {
  if (!moments.has(row.moment))
    throw new RememError('bad_injection', `unknown injection moment: ${row.moment}`);
  const badHash = row.lessonHashes.find((hash) => !lessonHash.test(hash));
  if (badHash !== undefined) {
    throw new RememError('bad_injection', 'an injection names lessons by their 32-hex-digit hash only');
  }
  if (!count(row.considered) || !count(row.dropped) || row.dropped > row.considered) {
    throw new RememError(
      'bad_injection',
      'considered and dropped are counts, and no more are dropped than considered',
    );
  }
  for (const [reason, n] of Object.entries(row.reasons)) {
    if (!reasonName.test(reason) || !count(n)) {
      throw new RememError('bad_injection', 'a drop reason is a short snake_case name with a count');
    }
  }
  if (row.session !== null && row.session.length > 200) {
    throw new RememError('bad_injection', 'a session id is at most 200 characters');
  }
  insertInjection(db, row);
}
