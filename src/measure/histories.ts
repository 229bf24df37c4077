import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RememError } from '../core/index.ts';

/**
 * A labelled multi-session history (the development set's `histories/` format): real sessions of one person
 * with one agent on one repository, every correction listed, and each repeat pointing at the first correction
 * of the same rule in an earlier session.
 */
export interface LabelledHistory {
  name: string;
  source: string;
  sessions: {
    id: string;
    started: string;
    turns: { role: 'user' | 'assistant'; text: string; n: number }[];
  }[];
  corrections: LabelledCorrection[];
}

export interface LabelledCorrection {
  session: string;
  turn: number;
  said: string;
  repeats: { session: string; turn: number } | null;
  theme: string;
  why: string;
}

function fail(file: string, what: string): never {
  throw new RememError('bad_history', `${file}: ${what}`);
}

/** Reads one history file, refusing a shape it cannot replay with the reason. */
export function readHistory(file: string): LabelledHistory {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(file, `not readable JSON (${(error as Error).message})`);
  }
  const body = value as Partial<LabelledHistory>;
  if (!Array.isArray(body.sessions) || !Array.isArray(body.corrections))
    fail(file, 'no sessions or corrections');
  for (const session of body.sessions) {
    if (
      typeof session.id !== 'string' ||
      Number.isNaN(Date.parse(session.started)) ||
      !Array.isArray(session.turns)
    ) {
      fail(file, `session ${String(session.id)} has no id, start time or turns`);
    }
  }
  const name = file
    .split('/')
    .pop()!
    .replace(/\.json$/, '');
  return {
    name,
    source: typeof body.source === 'string' ? body.source : name,
    sessions: [...body.sessions].sort((a, b) => Date.parse(a.started) - Date.parse(b.started)),
    corrections: body.corrections,
  };
}

/** Every `*.json` history in a folder, by name. */
export function readHistories(dir: string): LabelledHistory[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    throw new RememError('no_histories', `${dir}: no such folder of histories`);
  }
  if (names.length === 0) throw new RememError('no_histories', `${dir}: holds no *.json history`);
  return names.sort().map((name) => readHistory(join(dir, name)));
}

/** Lowercased, whitespace runs made one space: how a shown text and a correction are compared. */
export function flatten(text: string): string {
  return text.toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
}

/**
 * Whether an earlier correction was put in front of the agent: its first 60 characters (flattened) appear in
 * one item of what was shown, or at least 80 % of its distinct words of three or more letters do. An item is a
 * line: words gathered from several lessons of a block did not show the correction.
 */
export function wasShown(said: string, shown: string): boolean {
  return shown.split('\n').some((item) => item.trim() !== '' && shownInItem(said, item));
}

function shownInItem(said: string, shown: string): boolean {
  const flat = flatten(shown);
  const head = flatten(said).slice(0, 60);
  if (head.length > 0 && flat.includes(head)) return true;
  const needed = words(said);
  if (needed.size === 0) return false;
  const have = words(shown);
  let found = 0;
  for (const word of needed) if (have.has(word)) found++;
  return found / needed.size >= 0.8;
}
