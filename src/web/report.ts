import { morningReportText, type SleepReport } from '../sleep/index.ts';
import { type Db, type DelegationTally, delegationTally, lastSleep } from '../store/index.ts';

/** The morning report and the delegation tally: the owner's view, never an agent's. */
export interface MorningView {
  at: string | null;
  /** The report in the words of `remem report`. */
  text: string;
  report: SleepReport | null;
  tally: DelegationTally[];
}

export function morningView(db: Db): MorningView {
  const last = lastSleep(db);
  const tally = delegationTally(db);
  if (!last) {
    return { at: null, text: 'No morning report yet: run `remem sleep`.', report: null, tally };
  }
  const report = last.report as SleepReport;
  return { at: last.at, text: morningReportText(report, tally), report, tally };
}
