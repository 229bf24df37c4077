import { readFileSync } from 'node:fs';
import type { LineWarning, Reader, Turn } from '../../src/stream/types.ts';

/** Reads a whole transcript with a reader, one JSON value per line; a line that is not JSON is a warning. */
export function readText(reader: Reader, text: string): { turns: Turn[]; warnings: LineWarning[] } {
  const turns: Turn[] = [];
  const warnings: LineWarning[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      warnings.push({ line, reason: 'not JSON' });
      continue;
    }
    const result = reader.parseLine(value, line);
    turns.push(...result.turns);
    if (result.warning !== undefined) warnings.push({ line, reason: result.warning });
  }
  return { turns, warnings };
}

export function readFile(reader: Reader, path: string): { turns: Turn[]; warnings: LineWarning[] } {
  return readText(reader, readFileSync(path, 'utf8'));
}

/** The person's words of the prompt turns, in order. */
export function said(turns: readonly Turn[]): string[] {
  return turns.flatMap((turn) => (turn.type === 'prompt' ? [turn.text] : []));
}

/** The agent's words of the reply turns, in order. */
export function words(turns: readonly Turn[]): string[] {
  return turns.flatMap((turn) => (turn.type === 'reply' ? [turn.text] : []));
}
