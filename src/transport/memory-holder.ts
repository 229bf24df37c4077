import type { Origin, ParsedRecord } from '../protocol/index.ts';
import { timeKey } from '../protocol/index.ts';
import type { GossipHolder } from './gossip.ts';

/** One record per lesson per kind of record: a lesson, its confirmation, its revocation by this origin. */
function slotOf(parsed: ParsedRecord): string {
  if (parsed.kind === 'confirm') return `c${parsed.record.confirm}`;
  if (parsed.kind === 'revoke') return `r${parsed.record.revoke}`;
  return `l${parsed.record.hash}`;
}

interface Held {
  slots: Map<string, { key: string; line: string }>;
  updated: string;
  updatedKey: string;
  lines: string[] | null;
}

/**
 * A holder in memory, for tests and the simulation. It merges rather than replaces: for each origin it keeps
 * the newest record per lesson and kind, so a relay that drops lines takes nothing away.
 */
export function createMemoryHolder(): GossipHolder {
  const held = new Map<Origin, Held>();
  const known = new Map<Origin, string>();
  return {
    known: () => known,
    lines(origin) {
      const entry = held.get(origin);
      if (entry === undefined) return [];
      entry.lines ??= [...entry.slots.values()].map((slot) => slot.line).sort();
      return entry.lines;
    },
    accept(origin, records) {
      let entry = held.get(origin);
      let accepted = 0;
      for (const parsed of records) {
        const key = timeKey(parsed.record.updated) ?? '';
        if (entry === undefined) {
          entry = { slots: new Map(), updated: parsed.record.updated, updatedKey: key, lines: null };
          held.set(origin, entry);
        }
        const slot = slotOf(parsed);
        const current = entry.slots.get(slot);
        if (
          current !== undefined &&
          (current.key > key || (current.key === key && current.line >= parsed.line))
        )
          continue;
        entry.slots.set(slot, { key, line: parsed.line });
        entry.lines = null;
        accepted++;
        if (key > entry.updatedKey) {
          entry.updatedKey = key;
          entry.updated = parsed.record.updated;
        }
      }
      if (entry !== undefined) known.set(origin, entry.updated);
      return { accepted, refused: [] };
    },
  };
}
