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

/** A history file refused whole, with the reason apart from the file it names. */
class RefusedHistory extends RememError {
  readonly reason: string;
  constructor(file: string, reason: string) {
    super('bad_history', `${file}: ${reason}`);
    this.reason = reason;
  }
}

function fail(file: string, what: string): never {
  throw new RefusedHistory(file, what);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why a session cannot be replayed, or null: an id, a start time and turns of a role, a text and a number. */
function badSession(session: unknown): string | null {
  if (!isObject(session) || typeof session['id'] !== 'string') return 'a session has no id';
  const id = session['id'];
  if (typeof session['started'] !== 'string' || Number.isNaN(Date.parse(session['started'])))
    return `session ${id} has no start time`;
  const turns = session['turns'];
  if (!Array.isArray(turns)) return `session ${id} has no turns`;
  const bad = turns.findIndex(
    (turn) =>
      !isObject(turn) ||
      (turn['role'] !== 'user' && turn['role'] !== 'assistant') ||
      typeof turn['text'] !== 'string' ||
      typeof turn['n'] !== 'number',
  );
  return bad === -1 ? null : `session ${id}: turn ${bad} has no role, text or number`;
}

/** Why a labelled correction cannot be counted, or null. */
function badCorrection(correction: unknown, index: number, sessions: ReadonlySet<string>): string | null {
  const at = `correction ${index}`;
  if (!isObject(correction)) return `${at} is not an object`;
  const { session, turn, said, repeats } = correction;
  if (typeof session !== 'string' || !sessions.has(session)) return `${at} names no session of the history`;
  if (typeof turn !== 'number' || typeof said !== 'string') return `${at} has no turn or words`;
  if (
    repeats !== null &&
    !(isObject(repeats) && typeof repeats['session'] === 'string' && typeof repeats['turn'] === 'number')
  )
    return `${at}: "repeats" is neither null nor a session and turn`;
  return null;
}

/**
 * Reads one history file, refusing a file it cannot replay at all with the reason. A session or a correction of a
 * shape it cannot use is left out, and `refused` told why; the rest is replayed.
 */
export function readHistory(file: string, refused: (reason: string) => void = () => {}): LabelledHistory {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(file, `not readable JSON (${(error as Error).message})`);
  }
  if (!isObject(value) || !Array.isArray(value['sessions']) || !Array.isArray(value['corrections']))
    fail(file, 'no sessions or corrections');
  const sessions: LabelledHistory['sessions'] = [];
  for (const session of value['sessions'] as unknown[]) {
    const bad = badSession(session);
    if (bad === null) sessions.push(session as LabelledHistory['sessions'][number]);
    else refused(`${bad}; left out`);
  }
  if (sessions.length === 0) fail(file, 'no session it can replay');
  const ids = new Set(sessions.map((session) => session.id));
  const corrections: LabelledCorrection[] = [];
  (value['corrections'] as unknown[]).forEach((correction, index) => {
    const bad = badCorrection(correction, index, ids);
    if (bad !== null) {
      refused(`${bad}; left out`);
      return;
    }
    const { why } = correction as { why?: unknown };
    corrections.push({
      ...(correction as LabelledCorrection),
      why: typeof why === 'string' ? why : '',
      theme: String((correction as { theme?: unknown }).theme ?? ''),
    });
  });
  const name = file
    .split('/')
    .pop()!
    .replace(/\.json$/, '');
  return {
    name,
    source: typeof value['source'] === 'string' ? value['source'] : name,
    sessions: sessions.sort((a, b) => Date.parse(a.started) - Date.parse(b.started)),
    corrections,
  };
}

/**
 * Every `*.json` history in a folder, by name. A file that cannot be replayed, and a session or correction left out
 * of one, is told to `refused` with its file and reason, and the others are read; none readable is an error.
 */
export function readHistories(
  dir: string,
  refused: (file: string, reason: string) => void = () => {},
): LabelledHistory[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    throw new RememError('no_histories', `${dir}: no such folder of histories`);
  }
  if (names.length === 0) throw new RememError('no_histories', `${dir}: holds no *.json history`);
  const histories: LabelledHistory[] = [];
  const reasons: string[] = [];
  for (const name of names.sort()) {
    const file = join(dir, name);
    try {
      histories.push(readHistory(file, (reason) => refused(file, reason)));
    } catch (error) {
      if (!(error instanceof RefusedHistory)) throw error;
      reasons.push(error.message);
      refused(file, error.reason);
    }
  }
  if (histories.length === 0)
    throw new RememError('no_histories', `${dir}: no history could be replayed (${reasons.join('; ')})`);
  return histories;
}

/** Lowercased, whitespace runs made one space: how a shown text and a correction are compared. */
export function flatten(text: string): string {
  return text.toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
}

/** The first 60 characters of a correction, flattened: what a shown item or an episode must hold of it. */
export function headOf(said: string): string {
  return flatten(said).slice(0, 60);
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
  const head = headOf(said);
  if (head.length > 0 && flat.includes(head)) return true;
  const needed = words(said);
  if (needed.size === 0) return false;
  const have = words(shown);
  let found = 0;
  for (const word of needed) if (have.has(word)) found++;
  return found / needed.size >= 0.8;
}
