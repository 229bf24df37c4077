/** What the reader tests share: an ingest and the episodes it gave, read through the binary, and a file's digest. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { remem } from '../helpers/remem.ts';
import type { Episode } from './sessions.ts';

/** When the reader tests look: the evening of the day their sessions ran. */
export const READ_NOW = '2026-11-01T23:00:00.000Z';

export function episodesOf(home: string, now = READ_NOW): Episode[] {
  const listed = remem(['episodes', '--json'], { home, now });
  expect(listed.code, listed.stderr).toBe(0);
  return listed.json<{ episodes: Episode[] }>().episodes;
}

export function ingest(home: string, args: string[], env: Record<string, string> = {}, now = READ_NOW) {
  const result = remem(['ingest', '--json', ...args], { home, now, env });
  expect(result.code, result.stderr).toBe(0);
  return result.json<{
    filesRead: number;
    filesUnchanged: number;
    filesRestarted: number;
    linesRead: number;
    warningCount: number;
    warnings: { file: string; line?: number; reason: string }[];
  }>();
}

/** A file's SHA-256: a reader that never writes the agent's files leaves it as it was. */
export const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The person's words of the correction episodes, in sorted order. */
export function correctionsSaid(episodes: readonly Episode[]): (string | null | undefined)[] {
  return episodes.flatMap((episode) => (episode.kind === 'correction' ? [episode.said] : [])).sort();
}

/** Which agent and project each episode was read for, each pair once. */
export function agentsAndProjects(episodes: readonly Episode[]): Set<string> {
  return new Set(episodes.map((episode) => `${episode.agent} ${episode.project}`));
}
