import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { MeasureReport } from '../../src/measure/index.ts';
import { remem } from '../helpers/remem.ts';

/** Day `n` of the replayed history: day 0 is Sunday 2026-11-01, so days 1–7 are the next ISO week. */
export function day(n: number, hour = 10, minute = 0, second = 0): string {
  return new Date(Date.UTC(2026, 10, 1 + n, hour, minute, second)).toISOString();
}

export const project = '/tmp/remem-measure-project';

export function event(fields: Record<string, unknown>): string {
  return JSON.stringify({ agent: 'claude-code', cwd: project, ...fields });
}

/** Ingests events on day `n` at 23:00, as a person's hooks and agents would have reported them. */
export function ingestEvents(home: string, n: number, events: string[]): void {
  const file = join(home, `events-${n}.jsonl`);
  writeFileSync(file, `${events.join('\n')}\n`);
  const result = remem(['ingest', '--events', file], { home, now: day(n, 23) });
  expect(result.code, result.stderr).toBe(0);
}

/** The nightly sleep after day `n`, at 04:00 the next morning. */
export function sleepAfter(home: string, n: number): void {
  const result = remem(['sleep'], { home, now: day(n + 1, 4) });
  expect(result.code, result.stderr).toBe(0);
}

export function lessonHashes(home: string): { kind: string; text: string; hash: string }[] {
  const result = remem(['lessons', '--json', '--all'], { home });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{ lessons: { kind: string; text: string; hash: string }[] }>().lessons;
}

/** One row of the hooks' session log, as `remem prime` appends it under REMEM_HOME/prime/. */
export function primeRow(
  home: string,
  row: {
    at: string;
    session: string;
    moment: 'prompt' | 'stop' | 'tool';
    heldOut: boolean;
    hashes: string[];
  },
): void {
  mkdirSync(join(home, 'prime'), { recursive: true });
  const line = {
    at: row.at,
    session: row.session,
    moment: row.moment,
    shown: !row.heldOut,
    heldOut: row.heldOut,
    lessonHashes: row.hashes,
    considered: row.hashes.length,
    dropped: 0,
    reasons: {},
    ...(row.moment === 'stop' ? { blocked: !row.heldOut } : {}),
    ms: 3,
    outcome: row.heldOut ? 'silent' : 'answered',
  };
  appendFileSync(join(home, 'prime', `${row.session}.jsonl`), `${JSON.stringify(line)}\n`);
}

export function measured(home: string, now: string): MeasureReport {
  const result = remem(['measure', '--json'], { home, now });
  expect(result.code, result.stderr).toBe(0);
  return result.json<MeasureReport>();
}

/** A Claude Code transcript of one session, one line per message, each the child of the one before. */
export function writeTranscript(
  claudeDir: string,
  session: string,
  lines: { at: string; role: 'user' | 'assistant'; text: string }[],
): void {
  const dir = join(claudeDir, 'projects', '-tmp-remem-measure-project');
  mkdirSync(dir, { recursive: true });
  let parent: string | null = null;
  const out: string[] = [];
  for (const [index, line] of lines.entries()) {
    const uuid = `${session}-${String(index).padStart(4, '0')}`;
    const message =
      line.role === 'user'
        ? { role: 'user', content: line.text }
        : {
            id: `msg-${uuid}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [{ type: 'text', text: line.text }],
          };
    out.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        userType: 'external',
        cwd: project,
        sessionId: session,
        type: line.role,
        message,
        uuid,
        timestamp: line.at,
      }),
    );
    parent = uuid;
  }
  writeFileSync(join(dir, `${session}.jsonl`), `${out.join('\n')}\n`);
}

export function ingestTranscripts(home: string, claudeDir: string, now: string): void {
  const result = remem(['ingest', '--claude', claudeDir], { home, now });
  expect(result.code, result.stderr).toBe(0);
}
