import type { IndexEntry, Origin } from '../protocol/index.ts';

/** One record of a file as the store keeps it beside the file: enough to compute states without re-reading. */
export interface StoredRecord {
  kind: 'lesson' | 'confirm' | 'revoke';
  /** The lesson hash the record is about. */
  hash: string;
  /** `timeKey(updated)`: sortable. */
  updatedKey: string;
  line: string;
}

/** A memory's file, checked, ready to replace the one held. */
export interface FileToPut {
  origin: Origin;
  /** The body exactly as received; served back byte for byte. */
  body: Uint8Array;
  /** The latest `updated` among its records, as written, and its key. */
  updated: string;
  updatedKey: string;
  records: readonly StoredRecord[];
}

/** stored: replaced; unchanged: the same bytes were held already; stale: the held file is newer. */
export type PutOutcome =
  | { outcome: 'stored' | 'unchanged' }
  | { outcome: 'stale'; held: { updated: string; sameTime: boolean } };

export interface StoredFile {
  origin: Origin;
  body: Uint8Array;
  updated: string;
  records: number;
}

/** An index entry with the key it sorts by. */
export interface IndexRow extends IndexEntry {
  updatedKey: string;
}

export interface IndexQuery {
  /** Only files whose `updated` key is later than this. */
  sinceKey?: string;
  /** Only rows after this one in (updatedKey, origin) order. */
  after?: { updatedKey: string; origin: string };
  limit: number;
}

export interface TokenRow {
  /** A short public name for the token, to list and revoke it by. */
  id: string;
  /** The only origin it may write, or null for any. */
  origin: Origin | null;
  created: string;
  revoked: string | null;
}

/**
 * Where a commons keeps its files, tokens and rate counters. Every method is safe to call from several
 * processes at once over the same database; `putFile` is atomic and never lets a file's `updated` go back.
 */
export interface CommonsStore {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Replaces `origin`'s file, in one transaction with the replay check: refused as stale when the held file is
   * later, or as late but different.
   */
  putFile(file: FileToPut): Promise<PutOutcome>;
  getFile(origin: Origin): Promise<StoredFile | null>;
  /** Files in (updated, origin) order. */
  indexPage(query: IndexQuery): Promise<IndexRow[]>;
  /** Every record line held, in no particular order. */
  allRecords(): Promise<string[]>;
  /** The record lines of files whose `updated` key is later than `sinceKey`. */
  recordsSince(sinceKey: string): Promise<string[]>;
  /** Changes whenever a write commits: a cache of anything computed from the records is valid while it holds. */
  version(): Promise<string>;
  /** Stores a token by the SHA-256 of its secret; the secret itself is never kept. */
  addToken(token: TokenRow & { hash: string }): Promise<void>;
  findToken(hash: string): Promise<TokenRow | null>;
  listTokens(): Promise<TokenRow[]>;
  /** False when no such token is live. */
  revokeToken(id: string, at: string): Promise<boolean>;
  /** Counts one request for `token` in the window starting at `windowStart` (ms) and returns the count so far. */
  countRequest(token: string, windowStart: number): Promise<number>;
  close(): Promise<void>;
}
