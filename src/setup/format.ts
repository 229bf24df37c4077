import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { AgentSummary, FileChange, SetupPlan, SetupResult } from './types.ts';
import { NIGHTLY } from './types.ts';

/** The unified diff of one file; a created or deleted file is compared with /dev/null, as git does. */
export function diffChange(change: FileChange): string {
  return createTwoFilesPatch(
    change.before === null ? '/dev/null' : change.path,
    change.after === null ? '/dev/null' : change.path,
    change.before ?? '',
    change.after ?? '',
    undefined,
    undefined,
    { headerOptions: FILE_HEADERS_ONLY },
  );
}

function verb(agent: AgentSummary, dryRun: boolean): string {
  switch (agent.status) {
    case 'wire':
      return dryRun ? `would wire: ${agent.detail}` : `wired: ${agent.detail}`;
    case 'remove':
      return dryRun ? `would take remem out of: ${agent.detail}` : `took remem out of: ${agent.detail}`;
    case 'wired':
      return agent.detail;
    case 'not wired':
      return agent.detail;
    case 'not installed':
      return `not installed (${agent.detail})`;
    case 'unavailable':
      return `not available (${agent.detail})`;
  }
}

/**
 * What setup would do (`dryRun`: every file's unified diff, then a line per agent) or what it did
 * (a line per agent, the schedule's outcome, and anything to know).
 */
export function formatPlan(plan: SetupPlan, options: { dryRun: boolean; result?: SetupResult }): string {
  const out: string[] = [];
  if (options.dryRun) {
    for (const change of [...plan.changes, ...plan.schedule.flatMap((action) => action.files)]) {
      out.push(`# ${change.agent}: ${change.description}`, diffChange(change).trimEnd(), '');
    }
    for (const action of plan.schedule) {
      const commands = [...action.stop, ...action.start].map((command) =>
        [command.cmd, ...command.args].join(' '),
      );
      if (commands.length > 0) out.push(`# ${NIGHTLY}: would run ${commands.join(' && ')}`);
    }
  }
  const width = Math.max(0, ...plan.agents.map((agent) => agent.agent.length));
  for (const agent of plan.agents) {
    let line = verb(agent, options.dryRun);
    if (agent.agent === NIGHTLY && options.result && options.result.schedule.length > 0) {
      line = options.result.schedule.map((outcome) => outcome.message).join('; ');
    }
    out.push(`${agent.agent.padEnd(width)}  ${line}`);
  }
  for (const note of plan.notes) out.push(`note: ${note}`);
  for (const warning of options.result?.warnings ?? []) out.push(`warning: ${warning}`);
  if (options.dryRun) out.push('Dry run: nothing was written.');
  else if (plan.changes.length === 0 && plan.schedule.length === 0) out.push('Nothing to change.');
  return `${out.join('\n')}\n`;
}
