import type { LessonHash } from '../core/index.ts';
import type { Origin } from './keys.ts';
import { keyOfNow, timeKey } from './record-file.ts';
import type { LessonRecord, SignedRecord } from './records.ts';
import type { ParsedRecord } from './verify.ts';

/** A lesson's state in the commons (protocol §3). */
export type CommonsState = 'candidate' | 'common' | 'fading' | 'revoked' | 'removed';

export interface StateOptions {
  /** The holder's clock; records dated later are not counted yet. */
  now: string | Date;
  /** Independent confirmations for a candidate to become common (DESIGN.md §4: 3). */
  N: number;
  /** Days without a confirmation before a common lesson fades (DESIGN.md §4: 90). */
  W_days: number;
}

export interface LessonState {
  hash: LessonHash;
  state: CommonsState;
  /** How many memories confirmed it that did not publish it themselves. */
  confirmations: number;
  confirmers: Origin[];
  /** The memories that published it and have not withdrawn it (all of them, once it is revoked). */
  publishers: Origin[];
  /** The `updated` of the latest counted confirmation, as written. */
  lastConfirmed: string | null;
  revokedBy: 'origin' | 'quorum' | null;
  /** The lesson record shown for it: the latest by `updated`, then by its line. */
  lesson: LessonRecord;
  line: string;
}

interface Tally {
  lessons: Map<Origin, { key: string; record: LessonRecord; line: string }>;
  confirms: Map<Origin, { key: string; updated: string }>;
  revokers: Set<Origin>;
}

const dayKeyMs = 86_400_000;

function later(key: string, line: string, than: { key: string; line: string } | undefined): boolean {
  return than === undefined || key > than.key || (key === than.key && line > than.line);
}

function tally(records: Iterable<ParsedRecord>, nowKey: string): Map<LessonHash, Tally> {
  const byHash = new Map<LessonHash, Tally>();
  const of = (hash: LessonHash) => {
    let entry = byHash.get(hash);
    if (entry === undefined) {
      entry = { lessons: new Map(), confirms: new Map(), revokers: new Set() };
      byHash.set(hash, entry);
    }
    return entry;
  };
  for (const parsed of records) {
    const key = timeKey(parsed.record.updated);
    if (key === null || key > nowKey) continue;
    const origin = parsed.record.origin;
    if (parsed.kind === 'lesson') {
      const lessons = of(parsed.record.hash).lessons;
      if (later(key, parsed.line, lessons.get(origin))) {
        lessons.set(origin, { key, record: parsed.record, line: parsed.line });
      }
    } else if (parsed.kind === 'confirm') {
      const confirms = of(parsed.record.confirm).confirms;
      const held = confirms.get(origin);
      const updated = parsed.record.updated;
      if (held === undefined || key > held.key || (key === held.key && updated > held.updated)) {
        confirms.set(origin, { key, updated });
      }
    } else {
      of(parsed.record.revoke).revokers.add(origin);
    }
  }
  return byHash;
}

function ageInDays(nowKey: string, key: string): number {
  return (Date.parse(nowKey.slice(0, 23) + 'Z') - Date.parse(key.slice(0, 23) + 'Z')) / dayKeyMs;
}

/**
 * The commons-wide state of every lesson in `records`, a pure function of the set: the order records arrive
 * in and duplicates change nothing, so every holder of the same records computes the same states.
 *
 * - candidate: published, fewer than N independent confirmations (from memories that did not publish it);
 * - common: N or more, the latest within W days; fading: the latest within 2W days; removed: older still;
 * - revoked: every publisher revoked it, or more than half of its confirmers (and at least N) did.
 *
 * A revocation withdraws only its signer's publication: a second memory that published the same lesson keeps it.
 */
export function computeStates(
  records: Iterable<ParsedRecord>,
  options: StateOptions,
): Map<LessonHash, LessonState> {
  const nowKey = keyOfNow(options.now);
  const states = new Map<LessonHash, LessonState>();
  const byHash = tally(records, nowKey);
  for (const hash of [...byHash.keys()].sort()) {
    const { lessons, confirms, revokers } = byHash.get(hash)!;
    if (lessons.size === 0) continue;
    const live = [...lessons.keys()].filter((origin) => !revokers.has(origin));
    const confirmers = [...confirms.keys()].filter((origin) => !lessons.has(origin)).sort();
    const quorum = confirmers.filter((origin) => revokers.has(origin)).length;
    let revokedBy: LessonState['revokedBy'] = null;
    if (live.length === 0) revokedBy = 'origin';
    else if (quorum >= options.N && quorum * 2 > confirmers.length) revokedBy = 'quorum';

    let last: { key: string; updated: string } | null = null;
    for (const origin of confirmers) {
      const confirm = confirms.get(origin)!;
      if (last === null || confirm.key > last.key) last = confirm;
    }
    let state: CommonsState;
    if (revokedBy !== null) state = 'revoked';
    else if (confirmers.length < options.N || last === null) state = 'candidate';
    else {
      const age = ageInDays(nowKey, last.key);
      state = age <= options.W_days ? 'common' : age <= 2 * options.W_days ? 'fading' : 'removed';
    }

    const shown = revokedBy === 'origin' ? [...lessons.keys()] : live;
    let pick: { key: string; record: LessonRecord; line: string } | undefined;
    for (const origin of shown) {
      const candidate = lessons.get(origin)!;
      if (later(candidate.key, candidate.line, pick)) pick = candidate;
    }
    states.set(hash, {
      hash,
      state,
      confirmations: confirmers.length,
      confirmers,
      publishers: shown.sort(),
      lastConfirmed: last?.updated ?? null,
      revokedBy,
      lesson: pick!.record,
      line: pick!.line,
    });
  }
  return states;
}

/** A line a holder stored (it verified when it came in) as the record it is. */
export function storedRecord(line: string): ParsedRecord {
  const record = JSON.parse(line) as SignedRecord;
  if ('confirm' in record) return { kind: 'confirm', record, line };
  if ('revoke' in record) return { kind: 'revoke', record, line };
  return { kind: 'lesson', record, line };
}
