import type { Endpoint, RetryNotice } from '../core/index.ts';
import { RememError } from '../core/index.ts';
import { classifyHandback, HANDBACK_CHARS } from '../episodes/index.ts';
import { converse } from './converse.ts';
import { readReply } from './handback.ts';
import {
  appendKept,
  type ExperimentName,
  experimentDir,
  type KeptReply,
  keptFile,
  readKept,
  repairKeptFile,
  unitKey,
} from './kept.ts';
import { plans, unitsOf } from './plan.ts';
import { type ExperimentSummary, summarize } from './summary.ts';

export interface RunOptions {
  experiment: ExperimentName;
  models: readonly string[];
  baseUrl: string;
  apiKey?: string;
  /** Runs per situation, setting and arm; the plan's own number when left out. */
  runs?: number;
  /** Only the first N situations (a quick look before a long run). */
  situations?: number;
  timeoutMs: number;
  tries: number;
  retryMs: number;
  /** The time written on each kept reply. */
  now: () => string;
}

export interface RunProgress {
  done: number;
  total: number;
  /** Kept by this run. */
  kept: number;
  /** Kept before, so not asked again. */
  skipped: number;
}

export interface RunHooks {
  onProgress?: (progress: RunProgress) => void;
  onRetry?: (notice: RetryNotice) => void;
}

export interface RunReport {
  experiment: ExperimentName;
  dir: string;
  planned: number;
  kept: number;
  skipped: number;
  summary: ExperimentSummary;
}

/**
 * Runs one experiment against an OpenAI-compatible server, keeping every reply as it comes. A re-run asks
 * only for what is not kept yet, so a run stopped by a kill or by a server that stayed down goes on where it
 * stopped. A reply is kept only whole and only once the model answered it properly.
 */
export async function runExperiment(
  home: string,
  options: RunOptions,
  hooks: RunHooks = {},
): Promise<RunReport> {
  const plan = plans[options.experiment];
  const runs = options.runs ?? plan.runs;
  const units = unitsOf(plan, options.models, runs, options.situations);
  for (const model of options.models) repairKeptFile(keptFile(home, plan.name, model));
  const done = new Set(readKept(home, plan.name).map((reply) => reply.key));
  const progress: RunProgress = { done: 0, total: units.length, kept: 0, skipped: 0 };
  const dir = experimentDir(home, plan.name);
  for (const unit of units) {
    const key = unitKey({ ...unit, situation: unit.situation.id, arm: unit.arm.name });
    if (done.has(key)) {
      progress.skipped++;
      progress.done++;
      hooks.onProgress?.({ ...progress });
      continue;
    }
    const endpoint: Endpoint = {
      baseUrl: options.baseUrl,
      model: unit.model,
      temperature: 0.7,
      timeoutMs: options.timeoutMs,
      tries: options.tries,
      retryMs: options.retryMs,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    };
    const started = Date.now();
    let conversation: Awaited<ReturnType<typeof converse>>;
    try {
      conversation = await converse(endpoint, unit, hooks.onRetry, plan.loop);
    } catch (error) {
      if (!(error instanceof RememError)) throw error;
      throw new RememError(
        error.code,
        `${error.message}. Stopped: ${progress.kept} replies kept by this run, ${done.size} in all in ${dir}; the same command goes on from there.`,
      );
    }
    const final = readReply(conversation.reply);
    const reply: KeptReply = {
      v: 1,
      key,
      experiment: plan.name,
      model: unit.model,
      setting: unit.setting,
      situation: unit.situation.id,
      arm: unit.arm.name,
      run: unit.run,
      at: options.now(),
      ms: Date.now() - started,
      messages: conversation.messages,
      first: conversation.first,
      reply: conversation.reply,
      reminded: conversation.reminded,
      handback: final.handback,
      act: final.act,
      firstHandback: readReply(conversation.first).handback,
      hooksHandback: classifyHandback(conversation.reply.slice(-HANDBACK_CHARS)) !== null,
      toolCalls: conversation.toolCalls,
    };
    appendKept(keptFile(home, plan.name, unit.model), reply);
    done.add(key);
    progress.kept++;
    progress.done++;
    hooks.onProgress?.({ ...progress });
  }
  return {
    experiment: plan.name,
    dir,
    planned: units.length,
    kept: progress.kept,
    skipped: progress.skipped,
    summary: summarize(plan, readKept(home, plan.name)),
  };
}
