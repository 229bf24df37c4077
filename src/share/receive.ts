import type { Lesson, Params } from '../core/index.ts';
import type { Identity, ParsedRecord } from '../protocol/index.ts';
import {
  addSupport,
  addTombstone,
  appendAudit,
  deleteRecord,
  findLessonsByHash,
  getLesson,
  getRecord,
  getTombstone,
  hasAudit,
  insertReceivedLesson,
  putRecord,
  raiseLesson,
  recordsAbout,
  type Store,
  type SupportWay,
  saveLesson,
} from '../store/index.ts';

/** The rules' version written into the audit rows receiving adds. */
export const RECEIVE_RULES = 'receive-1';

/** One memory's file as read and checked line by line (the transport's `readRecordFile`). */
export interface IncomingFile {
  /** Where it was read: a path or a URL. */
  source: string;
  origin: string;
  /** The records that passed every check, each with its line exactly as received. */
  records: readonly ParsedRecord[];
  refused: readonly { line: number; code: string; reason: string }[];
  /** A problem with the file as a whole. */
  problem: { code: string; reason: string } | null;
}

export interface ReceiveOptions {
  now: string;
  params: Pick<Params, 'sharing' | 'commons'>;
}

export interface ReceiveRefusal {
  source: string;
  /** 1-based line in the file; 0 for the file as a whole or a record refused after its checks. */
  line: number;
  code: string;
  reason: string;
  /** The line, for a record refused after its checks passed (tombstoned, revoked). */
  record?: string;
}

export interface ReceiveReport {
  files: number;
  /** Lessons new here: candidates, pending review. */
  received: number;
  /** Newer records of lessons already held from the same origin. */
  updated: number;
  /** Lessons held here (this memory's or another's) that another memory published too. */
  corroborated: number;
  confirmations: number;
  revocations: number;
  /** Lessons dropped because their origin revoked them. */
  dropped: number;
  /** Lines already held, byte for byte or newer. */
  known: number;
  /** Lessons raised by another memory's confirmation or corroboration (+0.5 each, once per memory). */
  raised: { lessonId: number; hash: string; origin: string; way: SupportWay }[];
  refused: number;
  /** Refusals counted by their code: `signature`, `origin`, `imperative`, `tombstoned`, … */
  byReason: Record<string, number>;
  refusals: ReceiveRefusal[];
}

const order = { revoke: 0, lesson: 1, confirm: 2 } as const;

/**
 * Takes other memories' files into this one. Every line was checked by the reader (`parseRecordLine`: version,
 * signature over the bytes received, key fingerprint, hash, observation and secret rules); here a lesson whose
 * hash is tombstoned, or that its origin revoked, is refused as well. Revocations are taken first, then
 * lessons, then confirmations, so the order of files and lines does not matter.
 * - a lesson new here is stored as a candidate: origin = the sender's, review left `pending_review`,
 *   strength 0.5, kind and text as received; its line is kept byte for byte;
 * - the same hash already held (this memory's own lesson, or one from another origin) is a corroboration;
 * - a confirmation raises the lessons of that hash held here, unless it comes from their own origin;
 * - a revocation by a lesson's origin drops it here (vetoed, never shown to an agent) and tombstones its hash;
 * - so do revocations by a quorum of a received lesson's confirmers (more than half, at least N), as the
 *   commons-wide state counts them; checked once every record is in, so their order does not matter.
 * A memory raises a lesson once (+0.5), however many times and ways it supports it. Everything is audited.
 */
export function receive(
  store: Store,
  identity: Identity,
  files: readonly IncomingFile[],
  options: ReceiveOptions,
): ReceiveReport {
  const report: ReceiveReport = {
    files: files.length,
    received: 0,
    updated: 0,
    corroborated: 0,
    confirmations: 0,
    revocations: 0,
    dropped: 0,
    known: 0,
    raised: [],
    refused: 0,
    byReason: {},
    refusals: [],
  };
  const run = new Receiving(store, identity, options, report);
  store.db.transaction(() => {
    const records: { source: string; parsed: ParsedRecord }[] = [];
    for (const file of files) {
      if (file.problem !== null && file.problem.code !== 'empty') {
        run.refuse({ source: file.source, line: 0, ...file.problem });
      }
      for (const refusal of file.refused) run.refuse({ source: file.source, ...refusal });
      for (const parsed of file.records) records.push({ source: file.source, parsed });
    }
    records.sort((a, b) => order[a.parsed.kind] - order[b.parsed.kind]);
    for (const { source, parsed } of records) {
      if (parsed.record.origin === identity.origin) continue;
      if (parsed.kind === 'revoke') run.revocation(parsed.record.revoke, parsed);
      else if (parsed.kind === 'lesson') run.lesson(source, parsed.record.hash, parsed);
      else run.confirmation(parsed.record.confirm, parsed);
    }
    run.dropRevokedByQuorum();
  })();
  return report;
}

class Receiving {
  private readonly store: Store;
  private readonly identity: Identity;
  private readonly options: ReceiveOptions;
  private readonly report: ReceiveReport;

  constructor(store: Store, identity: Identity, options: ReceiveOptions, report: ReceiveReport) {
    this.store = store;
    this.identity = identity;
    this.options = options;
    this.report = report;
  }

  /** Hashes whose confirmations or revocations by others changed in this receive. */
  private readonly votedOn = new Set<string>();

  private get now(): string {
    return this.options.now;
  }

  refuse(refusal: ReceiveRefusal, hash: string | null = null): void {
    this.report.refused++;
    this.report.byReason[refusal.code] = (this.report.byReason[refusal.code] ?? 0) + 1;
    this.report.refusals.push(refusal);
    const where = refusal.line > 0 ? `${refusal.source}:${refusal.line}` : refusal.source;
    const reason = `${refusal.code}: ${refusal.reason} (${where})`;
    // A folder is read again and again: a refusal is written once.
    if (hasAudit(this.store.db, { actor: 'receive', action: 'refuse', reason })) return;
    appendAudit(this.store.db, {
      at: this.now,
      actor: 'receive',
      action: 'refuse',
      rules: RECEIVE_RULES,
      hash,
      reason,
    });
  }

  /** Whether the line is new or newer than what is held; it is kept either way it is. */
  private keep(parsed: ParsedRecord, hash: string): boolean {
    const { record, line, kind } = parsed;
    const put = putRecord(this.store.db, {
      kind,
      hash,
      origin: record.origin,
      updated: record.updated,
      line,
      receivedAt: this.now,
    });
    if (put === 'known') this.report.known++;
    return put !== 'known';
  }

  /** The lessons held here under a hash, each as the theme it now belongs to, not vetoed. */
  private holders(hash: string): Lesson[] {
    const { db } = this.store;
    const found = new Map<number, Lesson>();
    for (let lesson of findLessonsByHash(db, hash)) {
      if (lesson.hash !== hash) continue;
      for (let guard = 0; lesson.mergedInto !== null && guard < 64; guard++) {
        const next = getLesson(db, lesson.mergedInto);
        if (next === undefined) break;
        lesson = next;
      }
      if (lesson.vetoedAt === null) found.set(lesson.id, lesson);
    }
    return [...found.values()];
  }

  private support(lesson: Lesson, origin: string, way: SupportWay, hash: string): void {
    // A memory does not confirm or corroborate what it published itself.
    if (origin === lesson.origin || origin === this.identity.origin) return;
    const { db } = this.store;
    if (!addSupport(db, lesson.id, origin, way, hash, this.now)) return;
    const by = this.options.params.sharing.corroboration;
    raiseLesson(db, lesson.id, by, this.now);
    this.report.raised.push({ lessonId: lesson.id, hash, origin, way });
    appendAudit(db, {
      at: this.now,
      actor: 'receive',
      action: way === 'confirm' ? 'confirm' : 'corroborate',
      rules: RECEIVE_RULES,
      lessonId: lesson.id,
      hash,
      reason: `${way === 'confirm' ? 'confirmed' : 'corroborated'} by ${origin}: +${by}`,
    });
  }

  revocation(hash: string, parsed: ParsedRecord): void {
    const origin = parsed.record.origin;
    if (!this.keep(parsed, hash)) return;
    this.report.revocations++;
    const { db } = this.store;
    deleteRecord(db, 'lesson', hash, origin);
    this.votedOn.add(hash);
    // The memory that published a lesson withdraws it; anyone else's revocation counts only in a quorum.
    for (const lesson of this.holders(hash)) {
      if (lesson.origin === origin) this.drop(lesson, hash, `revoked by its origin ${origin}`);
    }
  }

  /** Drops a lesson held here: vetoed, its hash tombstoned, and the reason audited. */
  private drop(lesson: Lesson, hash: string, reason: string): void {
    const { db } = this.store;
    saveLesson(db, { ...lesson, vetoedAt: this.now, updatedAt: this.now });
    addTombstone(db, hash, reason, lesson.id, this.now);
    this.report.dropped++;
    appendAudit(db, {
      at: this.now,
      actor: 'receive',
      action: 'revoke',
      rules: RECEIVE_RULES,
      lessonId: lesson.id,
      hash,
      reason,
    });
  }

  lesson(source: string, hash: string, parsed: ParsedRecord & { kind: 'lesson' }): void {
    const { record } = parsed;
    const { db } = this.store;
    const refuse = (code: string, reason: string) =>
      this.refuse({ source, line: 0, code, reason, record: parsed.line }, hash);
    const tombstone = getTombstone(db, hash);
    if (tombstone !== undefined) {
      refuse('tombstoned', `lesson ${hash}: ${tombstone.reason}`);
      return;
    }
    if (getRecord(db, 'revoke', hash, record.origin) !== undefined) {
      refuse('revoked', `lesson ${hash} was revoked by its origin`);
      return;
    }
    this.votedOn.add(hash);
    if (!this.keep(parsed, hash)) return;
    const holders = this.holders(hash);
    if (holders.some((lesson) => lesson.origin === record.origin)) {
      this.report.updated++;
      return;
    }
    if (holders.length > 0) {
      this.report.corroborated++;
      for (const lesson of holders) this.support(lesson, record.origin, 'corroborate', hash);
      return;
    }
    const id = insertReceivedLesson(db, {
      hash,
      kind: record.kind,
      text: record.text,
      strength: this.options.params.sharing.candidateStrength,
      origin: record.origin,
      happenedAt: record.updated,
      at: this.now,
      rules: RECEIVE_RULES,
    });
    this.report.received++;
    appendAudit(db, {
      at: this.now,
      actor: 'receive',
      action: 'receive',
      rules: RECEIVE_RULES,
      lessonId: id,
      hash,
      reason: `from ${record.origin} (${source}): a candidate, pending review`,
    });
    // Confirmations that arrived before the lesson count now.
    const lesson = getLesson(db, id)!;
    for (const confirm of recordsAbout(db, 'confirm', hash))
      this.support(lesson, confirm.origin, 'confirm', hash);
  }

  confirmation(hash: string, parsed: ParsedRecord): void {
    if (!this.keep(parsed, hash)) return;
    this.votedOn.add(hash);
    this.report.confirmations++;
    for (const lesson of this.holders(hash)) this.support(lesson, parsed.record.origin, 'confirm', hash);
  }

  /**
   * The quorum the commons-wide state counts (protocol §3): confirmers are memories that confirmed the lesson
   * and did not publish it; it is revoked when more than half of them, and at least N, revoked it.
   */
  private quorumOf(hash: string): { revokers: number; confirmers: number } | null {
    const { db } = this.store;
    const publishers = new Set(recordsAbout(db, 'lesson', hash).map((record) => record.origin));
    const confirmers = recordsAbout(db, 'confirm', hash)
      .map((record) => record.origin)
      .filter((origin) => !publishers.has(origin));
    const revokers = new Set(recordsAbout(db, 'revoke', hash).map((record) => record.origin));
    const voted = confirmers.filter((origin) => revokers.has(origin)).length;
    const needed = this.options.params.commons.confirmations;
    return voted >= needed && voted * 2 > confirmers.length
      ? { revokers: voted, confirmers: confirmers.length }
      : null;
  }

  /**
   * Drops every lesson of a hash a quorum of its confirmers revoked: every holder drops it (protocol §3), the
   * memory that published it too, which then stops publishing it.
   */
  dropRevokedByQuorum(): void {
    for (const hash of this.votedOn) {
      // One of this memory's own lessons is dropped only as itself, never as a theme it was merged into.
      const received = this.holders(hash).filter(
        (lesson) => lesson.origin !== 'self' || lesson.hash === hash,
      );
      if (received.length === 0) continue;
      const quorum = this.quorumOf(hash);
      if (quorum === null) continue;
      const reason = `revoked by ${quorum.revokers} of its ${quorum.confirmers} confirmers`;
      for (const lesson of received) this.drop(lesson, hash, reason);
    }
  }
}
