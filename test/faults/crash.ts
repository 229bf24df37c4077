/**
 * A command stopped by SIGKILL at a random moment: the store must stay whole, keep everything it had
 * committed before the kill, and a rerun must reach the state an uninterrupted run reaches.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Corpus } from './corpus.ts';
import {
  checkIntegrity,
  copyHome,
  lostRows,
  readState,
  runRemem,
  type StoreState,
  sleepMs,
  startRemem,
  stateDifference,
} from './harness.ts';

export const crashCommands = ['ingest', 'sleep', 'run'] as const;
export type CrashCommand = (typeof crashCommands)[number];

export const CRASH_NOW = '2026-02-01T04:00:00.000Z';

export interface CrashSetup {
  command: CrashCommand;
  /** The home as it is before the command. */
  template: string;
  args: string[];
  /** After one uninterrupted run. */
  reference: StoreState;
  /**
   * After an uninterrupted run and then the same command again. A sleep that committed its night and was stopped
   * while writing its files is run again by the rerun, at the same pinned time: a second night.
   */
  again: StoreState;
  /** How long the uninterrupted run took, in ms. */
  ms: number;
  /** Nights the template had slept. */
  sleepsBefore: number;
}

export interface CrashTrial {
  command: CrashCommand;
  delayMs: number;
  /** The process was still running when it was killed (else the kill came too late to count). */
  killed: boolean;
  /** Episodes, lessons and nights committed at the kill. */
  atKill: { episodes: number; lessons: number; sleeps: number };
  integrity: string;
  /** Rows committed before the kill and missing after it. */
  lost: string[];
  /** The rerun failed: its exit code and first line. */
  rerunFailure: string | null;
  /** How the rerun's state differs from the uninterrupted one; null when it is the same. */
  difference: string | null;
}

function argsFor(command: CrashCommand, corpus: Corpus): string[] {
  if (command === 'ingest') return ['ingest', '--claude', corpus.claude, '--events', corpus.events];
  return [command];
}

/** A home with the transcripts where Claude Code keeps them and the events in the inbox, for `remem run`. */
function homeForRun(home: string, corpus: Corpus): void {
  copyHome(corpus.claude, join(home, 'user', '.claude'));
  copyFileSync(corpus.events, join(home, 'inbox.jsonl'));
}

async function mustRun(args: string[], home: string): Promise<number> {
  const result = await runRemem(args, { home, now: CRASH_NOW });
  if (result.code !== 0) throw new Error(`remem ${args.join(' ')} failed: ${result.stderr}`);
  return result.ms;
}

/** The template home for a command, and what an uninterrupted run (and a run followed by a rerun) leaves. */
export async function prepareCrash(command: CrashCommand, corpus: Corpus, root: string): Promise<CrashSetup> {
  const template = join(root, `${command}-template`);
  mkdirSync(template, { recursive: true });
  if (command === 'run') homeForRun(template, corpus);
  if (command === 'sleep') await mustRun(argsFor('ingest', corpus), template);
  const args = argsFor(command, corpus);
  const once = join(root, `${command}-reference`);
  copyHome(template, once);
  const ms = await mustRun(args, once);
  const reference = readState(once);
  await mustRun(args, once);
  const sleepsBefore = readState(template).sleeps;
  return { command, template, args, reference, again: readState(once), ms, sleepsBefore };
}

/** One trial: a copy of the template, the command killed after `delayMs`, then checked and run again. */
export async function crashTrial(setup: CrashSetup, delayMs: number, home: string): Promise<CrashTrial> {
  copyHome(setup.template, home);
  const started = startRemem(setup.args, { home, now: CRASH_NOW });
  await Promise.race([sleepMs(delayMs), started.done]);
  // What had been committed at the moment of the kill.
  const committed = readState(home);
  const killed = !started.exited();
  started.child.kill('SIGKILL');
  await started.done;
  const integrity = checkIntegrity(home);
  const afterKill = readState(home);
  const lost = lostRows(committed, afterKill);
  const rerun = await runRemem(setup.args, { home, now: CRASH_NOW });
  const rerunFailure = rerun.code === 0 ? null : `exit ${rerun.code}: ${rerun.stderr.trim()}`.slice(0, 400);
  const final = readState(home);
  // A night the killed run had committed is slept again by the rerun.
  const expected = afterKill.sleeps > setup.sleepsBefore ? setup.again : setup.reference;
  return {
    command: setup.command,
    delayMs: Math.round(delayMs),
    killed,
    atKill: {
      episodes: committed.episodes.size,
      lessons: committed.lessons.size,
      sleeps: committed.sleeps,
    },
    integrity,
    lost,
    rerunFailure,
    difference: stateDifference(final, expected),
  };
}

/** Kill delays spread over the measured run: one in each of `count` equal slices, at a random point of it. */
export function spreadDelays(ms: number, count: number, random: () => number): number[] {
  return Array.from({ length: count }, (_, i) => (ms * (i + random())) / count);
}
