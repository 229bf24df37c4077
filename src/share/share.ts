import type { Lesson, Params } from '../core/index.ts';
import type { Identity, Origin } from '../protocol/index.ts';
import { findLessonProblem, signRecord } from '../protocol/index.ts';
import {
  appendAudit,
  confirmedReceived,
  deleteRecord,
  getRecord,
  hasAudit,
  listLessons,
  putRecord,
  recordsOf,
  type Store,
  type StoredRecord,
  sharedProjects,
  tombstoneHashes,
} from '../store/index.ts';

/** The rules' version written into the audit rows sharing adds. */
export const SHARE_RULES = 'share-1';

export interface ShareOptions {
  now: string;
  /** Consent to publish correction lessons: they quote the person. */
  corrections?: boolean;
  params: Pick<Params, 'sharing' | 'commons'>;
}

/** A lesson this memory would have published but will not, and why. */
export interface ShareRefusal {
  lessonId: number;
  hash: string;
  code: string;
  reason: string;
}

export interface ShareResult {
  origin: Origin;
  /** The memory's file, one signed record per line: revocations, confirmations, then lessons, strongest first. */
  lines: string[];
  lessons: number;
  confirmations: number;
  revocations: number;
  refused: ShareRefusal[];
  /** Lessons kept back because their project is not enabled for sharing. */
  notEnabled: number;
  /** Correction lessons kept back for want of `--corrections`. */
  corrections: number;
  /** Records left out to stay within the commons' limits (1,000 records, 256 KB). */
  overLimit: number;
  /** The projects whose lessons may be shared. */
  projects: string[];
}

/** A path on this machine that names a person or a project: the record carries the sentence, never where it was learned. */
function findLocalPath(text: string, project: string | null): string | null {
  if (project !== null && project.length > 1 && text.includes(project)) {
    return 'text names the path of the project it was learned in';
  }
  if (/(?:^|[\s"'`(=:])(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)[^\s/\\"'`]+/.test(text)) {
    return "text names a path in a person's home folder";
  }
  return null;
}

function problemOf(lesson: Lesson, maxChars: number): { code: string; reason: string } | null {
  const problem = findLessonProblem(lesson.kind, lesson.text, maxChars);
  if (problem !== null) return problem;
  const path = findLocalPath(lesson.text, lesson.project);
  return path === null ? null : { code: 'path', reason: path };
}

function isShareable(lesson: Lesson): boolean {
  return (
    lesson.origin === 'self' &&
    lesson.mergedInto === null &&
    lesson.vetoedAt === null &&
    !lesson.archived &&
    lesson.review === 'approved'
  );
}

const stored = (
  origin: Origin,
  kind: StoredRecord['kind'],
  hash: string,
  line: string,
  updated: string,
  at: string,
) => ({ kind, hash, origin, updated, line, receivedAt: at }) satisfies StoredRecord;

/**
 * This memory's file, built from what consent allows (DESIGN.md §6; nothing is shared by default):
 * - its own error and surprise lessons learned in a project enabled for sharing (`remem share --enable`);
 *   correction lessons only with `corrections` (they quote the person), personal-scope ones included;
 * - only the lesson sentence, signed; a text that is not an observation, looks like a secret or names a
 *   local path is refused with its reason, and the refusal audited once;
 * - a confirmation for each received lesson whose prediction came true in a session of an enabled project
 *   (for a received correction, with `corrections` as well): a confirmation says what this memory's sessions met;
 * - every revocation this memory made, and beside a vote on a received lesson the confirmation that makes it
 *   count, kept though the lesson is dropped here.
 * The records are kept under this memory's origin, so the same lines can be served again.
 */
export function share(store: Store, identity: Identity, options: ShareOptions): ShareResult {
  const { db } = store;
  const { now } = options;
  const maxChars = options.params.sharing.maxChars;
  const projects = sharedProjects(db).map((row) => row.project);
  const enabled = new Set(projects);
  const tombstones = tombstoneHashes(db);
  const result: ShareResult = {
    origin: identity.origin,
    lines: [],
    lessons: 0,
    confirmations: 0,
    revocations: 0,
    refused: [],
    notEnabled: 0,
    corrections: 0,
    overLimit: 0,
    projects,
  };
  const mayShare = (kind: Lesson['kind'], project: string | null): 'yes' | 'corrections' | 'not_enabled' => {
    if (kind === 'correction') {
      if (options.corrections !== true) return 'corrections';
      return project === null || enabled.has(project) ? 'yes' : 'not_enabled';
    }
    return project !== null && enabled.has(project) ? 'yes' : 'not_enabled';
  };

  db.transaction(() => {
    const lessonLines: { line: string; strength: number }[] = [];
    const published = new Set<string>();
    for (const lesson of listLessons(db)) {
      if (!isShareable(lesson) || tombstones.has(lesson.hash)) continue;
      const consent = mayShare(lesson.kind, lesson.project);
      if (consent === 'corrections') result.corrections++;
      if (consent === 'not_enabled') result.notEnabled++;
      if (consent !== 'yes') continue;
      const problem = problemOf(lesson, maxChars);
      if (problem !== null) {
        refuse(store, result, lesson, problem, now);
        continue;
      }
      // Decay changes the strength without touching `updatedAt`: the record is as new as the later of the two.
      const updated = [lesson.updatedAt, lesson.decayedAt].sort()[1]!;
      const line = signRecord(
        identity,
        {
          kind: lesson.kind,
          text: lesson.text,
          seen: lesson.seen,
          strength: Math.round(lesson.strength * 1000) / 1000,
          updated,
        },
        { maxChars },
      );
      putRecord(db, stored(identity.origin, 'lesson', lesson.hash, line, updated, now), { replace: true });
      published.add(lesson.hash);
      lessonLines.push({ line, strength: lesson.strength });
    }

    const confirmed = new Set<string>();
    for (const row of confirmedReceived(db)) {
      if (confirmed.has(row.hash) || tombstones.has(row.hash)) continue;
      if (row.project === null || mayShare(row.kind, row.project) !== 'yes') continue;
      confirmed.add(row.hash);
      if (getRecord(db, 'confirm', row.hash, identity.origin) !== undefined) continue;
      const line = signRecord(identity, { confirm: row.hash, updated: row.confirmedAt });
      putRecord(db, stored(identity.origin, 'confirm', row.hash, line, row.confirmedAt, now));
    }

    const own = recordsOf(db, identity.origin);
    // A vote on a received lesson counts only beside its voter's confirmation: that one stays though the
    // lesson is dropped here.
    for (const record of own) if (record.kind === 'revoke') confirmed.add(record.hash);
    // What consent no longer covers, or what was withdrawn, is not published again.
    for (const record of own) {
      const keep =
        record.kind === 'revoke' ||
        (record.kind === 'lesson' && published.has(record.hash)) ||
        (record.kind === 'confirm' && confirmed.has(record.hash));
      if (!keep) deleteRecord(db, record.kind, record.hash, record.origin);
    }
    const revocations = own.filter((record) => record.kind === 'revoke').map((record) => record.line);
    const confirmations = own
      .filter((record) => record.kind === 'confirm' && confirmed.has(record.hash))
      .map((record) => record.line);
    lessonLines.sort((a, b) => b.strength - a.strength || (a.line < b.line ? -1 : 1));
    const ordered = [
      ...revocations.map((line) => ({ line, kind: 'revocations' as const })),
      ...confirmations.map((line) => ({ line, kind: 'confirmations' as const })),
      ...lessonLines.map(({ line }) => ({ line, kind: 'lessons' as const })),
    ];
    const { maxRecords, maxBytes } = options.params.commons;
    let bytes = 0;
    for (const { line, kind } of ordered) {
      const size = Buffer.byteLength(line, 'utf8') + 1;
      if (result.lines.length >= maxRecords || bytes + size > maxBytes) {
        result.overLimit++;
        continue;
      }
      bytes += size;
      result.lines.push(line);
      result[kind]++;
    }
  })();
  return result;
}

function refuse(
  store: Store,
  result: ShareResult,
  lesson: Lesson,
  problem: { code: string; reason: string },
  now: string,
): void {
  result.refused.push({ lessonId: lesson.id, hash: lesson.hash, ...problem });
  const reason = `not shared: ${problem.reason}`;
  if (hasAudit(store.db, { actor: 'share', action: 'refuse', reason, lessonId: lesson.id })) return;
  appendAudit(store.db, {
    at: now,
    actor: 'share',
    action: 'refuse',
    rules: SHARE_RULES,
    lessonId: lesson.id,
    hash: lesson.hash,
    reason,
  });
}
