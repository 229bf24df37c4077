import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, truncateSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChatMessage } from '../core/index.ts';
import type { HandbackAct } from './handback.ts';
import type { SettingName } from './situations.ts';

export const experimentNames = ['behaviour', 'mechanism', 'loop', 'boundary'] as const;
export type ExperimentName = (typeof experimentNames)[number];

/** One reply the experiment kept: what the model was sent, what it answered, and how the reply reads. */
export interface KeptReply {
  v: 1;
  /** model · setting · situation · arm · run: a re-run skips a key already kept. */
  key: string;
  experiment: ExperimentName;
  model: string;
  setting: SettingName;
  situation: string;
  arm: string;
  run: number;
  at: string;
  ms: number;
  /** The whole conversation, the final reply last. */
  messages: ChatMessage[];
  /** The model's first closing reply, before any reminder. */
  first: string;
  /** The final reply: after the reminder or the nudge when one was given, else the first. */
  reply: string;
  reminded: boolean;
  /** The final reply hands back, by the experiments' rule (`readReply`). */
  handback: boolean;
  act: HandbackAct | null;
  firstHandback: boolean;
  /** The final reply hands back by the hooks' narrower rule alone, reported beside. */
  hooksHandback: boolean;
  toolCalls: number;
}

export function unitKey(unit: {
  model: string;
  setting: string;
  situation: string;
  arm: string;
  run: number;
}): string {
  return [unit.model, unit.setting, unit.situation, unit.arm, unit.run].join(' · ');
}

export function experimentDir(home: string, experiment: ExperimentName): string {
  return join(home, 'experiments', experiment);
}

/** One file per model: its name made safe for a file system. */
export function keptFile(home: string, experiment: ExperimentName, model: string): string {
  return join(experimentDir(home, experiment), `${model.replace(/[^\w.-]+/g, '_')}.jsonl`);
}

function isKept(value: unknown): value is KeptReply {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    row['v'] === 1 &&
    typeof row['key'] === 'string' &&
    typeof row['model'] === 'string' &&
    typeof row['arm'] === 'string' &&
    typeof row['reply'] === 'string' &&
    row['reply'] !== '' &&
    typeof row['handback'] === 'boolean' &&
    Array.isArray(row['messages'])
  );
}

/** Every reply kept for an experiment (all models), each key once: the first kept wins. */
export function readKept(home: string, experiment: ExperimentName): KeptReply[] {
  const dir = experimentDir(home, experiment);
  if (!existsSync(dir)) return [];
  const seen = new Set<string>();
  const rows: KeptReply[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // a line cut by a crash; its reply is asked for again
      }
      if (!isKept(value) || value.experiment !== experiment || seen.has(value.key)) continue;
      seen.add(value.key);
      rows.push(value);
    }
  }
  return rows;
}

/**
 * Makes a kept file end on a whole line: a run killed while writing leaves part of a line, which would run
 * into the next reply appended after it.
 */
export function repairKeptFile(path: string): void {
  if (!existsSync(path)) return;
  const bytes = readFileSync(path);
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return;
  truncateSync(path, bytes.lastIndexOf(0x0a) + 1);
}

/** Keeps one reply: one line, appended whole. */
export function appendKept(path: string, reply: KeptReply): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${JSON.stringify(reply)}\n`);
}
