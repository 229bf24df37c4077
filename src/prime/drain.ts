import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/index.ts';
import { recordInjection } from '../truth/index.ts';
import { drainSessionLogs, type PrimeLogRow } from './session-log.ts';

/** How many hook timings `remem doctor` keeps. */
const KEPT_TIMINGS = 2000;

export interface HookTiming {
  at: string;
  moment: PrimeLogRow['moment'];
  ms: number;
  outcome: PrimeLogRow['outcome'];
}

function timingsFile(home: string): string {
  return join(home, 'hook-timings.jsonl');
}

/**
 * Moves what the hooks logged into the audit tables: every prime that chose lessons becomes an injection
 * row, shown or held out. The timings are kept apart for `remem doctor`.
 */
export function drainPrimeLogs(store: Store): { injections: number; rows: number } {
  let injections = 0;
  const timings: HookTiming[] = [];
  const rows = drainSessionLogs(store.home, (rows) => {
    store.db.transaction(() => {
      for (const row of rows) {
        timings.push({ at: row.at, moment: row.moment, ms: row.ms, outcome: row.outcome });
        if (row.lessonHashes.length === 0) continue;
        recordInjection(store.db, {
          at: row.at,
          session: row.session.slice(0, 200),
          moment: row.moment,
          shown: !row.heldOut,
          lessonHashes: row.lessonHashes,
          considered: row.considered,
          dropped: row.dropped,
          reasons: row.reasons,
        });
        injections++;
      }
    })();
  });
  if (timings.length) {
    appendFileSync(timingsFile(store.home), timings.map((timing) => `${JSON.stringify(timing)}\n`).join(''));
    const kept = readFileSync(timingsFile(store.home), 'utf8').trimEnd().split('\n');
    if (kept.length > KEPT_TIMINGS)
      writeFileSync(timingsFile(store.home), `${kept.slice(-KEPT_TIMINGS).join('\n')}\n`);
  }
  return { injections, rows };
}

/** The hooks' recent timings, oldest first. */
export function readHookTimings(home: string): HookTiming[] {
  if (!existsSync(timingsFile(home))) return [];
  return readFileSync(timingsFile(home), 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as HookTiming];
      } catch {
        return [];
      }
    });
}
