import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { continueSessionLines } from '../stream/index.ts';

/** A source of ingest.ts (`Source`), as this module makes them. */
interface ContinueSource {
  path: string;
  agent: 'continue';
  bytes?: Buffer;
  unreadable?: string;
}

/**
 * Continue's sessions under its folder (docs/formats/continue.md): one source a session file, given as the lines
 * made of it, its project the workspace it names. A file that cannot be read, or is not a session, is a source that
 * says so; the run warns and goes on.
 */
export function continueSources(continueDir: string): ContinueSource[] {
  const dir = join(continueDir, 'sessions');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'sessions.json');
  } catch {
    return [];
  }
  const created = createdTimes(join(dir, 'sessions.json'));
  return names.sort().map((name): ContinueSource => {
    const path = join(dir, name);
    let text: string;
    let at: string;
    try {
      text = readFileSync(path, 'utf8');
      at = created.get(name.replace(/\.json$/, '')) ?? fileTime(path);
    } catch (error) {
      return { path, agent: 'continue', unreadable: (error as Error).message };
    }
    const bytes = continueSessionLines(text, at);
    return bytes === null
      ? { path, agent: 'continue', unreadable: 'not a Continue session (no history array)' }
      : { path, agent: 'continue', bytes };
  });
}

/** When each session was created, from Continue's index of them (`dateCreated`: milliseconds, as a string or not). */
function createdTimes(index: string): Map<string, string> {
  const times = new Map<string, string>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(index, 'utf8'));
  } catch {
    return times; // without the index, each session has its file's time
  }
  if (!Array.isArray(parsed)) return times;
  for (const entry of parsed) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { sessionId, dateCreated } = entry as { sessionId?: unknown; dateCreated?: unknown };
    const ms = typeof dateCreated === 'number' ? dateCreated : Number(dateCreated);
    const at = Number.isFinite(ms) && ms > 0 ? new Date(ms) : new Date(String(dateCreated));
    if (typeof sessionId === 'string' && !Number.isNaN(at.getTime())) times.set(sessionId, at.toISOString());
  }
  return times;
}

/** A session file's time when the index has none: when it was made, which rewrites leave alone, else its last write. */
export function fileTime(path: string): string {
  const stat = statSync(path);
  return new Date(stat.birthtimeMs > 0 ? stat.birthtimeMs : stat.mtimeMs).toISOString();
}
