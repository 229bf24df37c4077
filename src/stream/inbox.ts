import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseEventLine, type RememEvent } from './events.ts';

/**
 * `remember` from any surface (MCP, REST, the proxy): the event is checked, then appended to
 * `REMEM_HOME/inbox.jsonl`, which the next ingest reads into an episode. An event is raw stream: it stays
 * on this machine. One without a `cwd` was said where the surface runs (`cwd`), and belongs to that project.
 */
export function appendToInbox(
  home: string,
  body: unknown,
  now: string,
  options: { cwd?: string | null } = {},
): { stored: RememEvent } | { refused: string } {
  const line = JSON.stringify(body) ?? '';
  const parsed = parseEventLine(line, 1);
  if ('error' in parsed) return { refused: parsed.error.replace(/^line 1: /, '') };
  const cwd = parsed.event.cwd ?? options.cwd ?? undefined;
  const event = { ...parsed.event, at: parsed.event.at ?? now, ...(cwd === undefined ? {} : { cwd }) };
  mkdirSync(home, { recursive: true, mode: 0o700 });
  appendFileSync(join(home, 'inbox.jsonl'), `${JSON.stringify(event)}\n`, { mode: 0o600 });
  return { stored: event };
}
