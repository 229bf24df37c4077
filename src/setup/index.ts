import type { Config } from '../core/index.ts';
import type { SetupEnv } from './types.ts';

export { applySetup } from './apply.ts';
export { diffChange, formatPlan } from './format.ts';
export { inspectWiring } from './inspect.ts';
export { wiredAgents } from './manifest.ts';
export { BACKUP_SUFFIX, planSetup } from './plan.ts';
export { createProcessRunner } from './runner.ts';
export { CRON_MARK } from './schedule.ts';
export type {
  AgentName,
  AgentStatus,
  AgentSummary,
  Command,
  CommandRunner,
  FileChange,
  RunResult,
  ScheduleAction,
  ScheduleOutcome,
  Scheduler,
  SetupEnv,
  SetupOptions,
  SetupPlan,
  SetupResult,
  WiringStatus,
} from './types.ts';

/** The folders setup needs, from the resolved config. */
export function setupEnvFrom(config: Config, platform: NodeJS.Platform = process.platform): SetupEnv {
  return {
    userHome: config.userHome,
    claudeDir: config.claudeDir,
    codexHome: config.codexHome,
    vscodeDir: config.vscodeDir,
    platform,
    rememHome: config.home,
  };
}
