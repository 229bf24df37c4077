import type { Params } from '../core/index.ts';
import type { Identity, Origin, ParsedRecord } from '../protocol/index.ts';
import { heldOrigins, recordsOf, type Store } from '../store/index.ts';
import { type ReceiveReport, receive } from './receive.ts';

/** What a holder answers when handed records: the shape gossip's `GossipHolder.accept` returns. */
export interface HolderAnswer {
  /** Records that changed what this memory holds. */
  accepted: number;
  refused: { line: string; code: string; reason: string }[];
}

/**
 * This memory's records as a gossip holder (`GossipHolder` in `src/transport/gossip.ts`): it serves every line
 * it holds — its own and others', exactly as signed — and takes what peers offer through `receive`, so a record
 * that arrives by gossip meets the same rules as one from a folder or the commons.
 */
export function createStoreHolder(
  store: Store,
  identity: Identity,
  options: {
    now: () => string;
    params: Pick<Params, 'sharing' | 'commons'>;
    /** Told what each `accept` did, as `remem receive` reports it. */
    onReceive?: (report: ReceiveReport) => void;
  },
) {
  return {
    known(): ReadonlyMap<Origin, string> {
      return new Map(heldOrigins(store.db).map((row) => [row.origin as Origin, row.updated]));
    },
    lines(origin: Origin): readonly string[] {
      return recordsOf(store.db, origin).map((record) => record.line);
    },
    accept(origin: Origin, records: readonly ParsedRecord[]): HolderAnswer {
      const file = { source: `gossip:${origin}`, origin, records, refused: [], problem: null };
      const report = receive(store, identity, [file], { now: options.now(), params: options.params });
      options.onReceive?.(report);
      return {
        accepted:
          report.received + report.updated + report.corroborated + report.confirmations + report.revocations,
        refused: report.refusals.map((refusal) => ({
          line: refusal.record ?? '',
          code: refusal.code,
          reason: refusal.reason,
        })),
      };
    },
  };
}
