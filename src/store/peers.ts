import type { Db } from './open.ts';

/** A peer this memory pulls gossip from, as last seen. */
export interface StoredPeer {
  url: string;
  /** The peer whose index named it; null for one only ever configured. */
  learnedFrom: string | null;
  learnedAt: string | null;
  lastTriedAt: string | null;
  lastOkAt: string | null;
  /** Pulls that failed in a row. */
  failures: number;
  lastError: string | null;
}

const columns = `url, learned_from AS learnedFrom, learned_at AS learnedAt, last_tried_at AS lastTriedAt,
  last_ok_at AS lastOkAt, failures, last_error AS lastError`;

export function listPeers(db: Db): StoredPeer[] {
  return db.prepare(`SELECT ${columns} FROM peers ORDER BY url`).all() as StoredPeer[];
}

/** Notes a peer named in another's index. Returns false when it was already known. */
export function learnPeer(db: Db, url: string, from: string, at: string): boolean {
  return (
    db
      .prepare(
        `INSERT INTO peers (url, learned_from, learned_at) VALUES (?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET learned_from = excluded.learned_from, learned_at = excluded.learned_at
         WHERE peers.learned_from IS NULL`,
      )
      .run(url, from, at).changes > 0
  );
}

/** Notes how a pull from a peer went: a success clears its failures, a failure adds one. */
export function notePeerPull(db: Db, url: string, at: string, error: string | null): void {
  db.prepare(
    `INSERT INTO peers (url, last_tried_at, last_ok_at, failures, last_error)
     VALUES (@url, @at, CASE WHEN @error IS NULL THEN @at END, CASE WHEN @error IS NULL THEN 0 ELSE 1 END, @error)
     ON CONFLICT (url) DO UPDATE SET
       last_tried_at = @at,
       last_ok_at = CASE WHEN @error IS NULL THEN @at ELSE peers.last_ok_at END,
       failures = CASE WHEN @error IS NULL THEN 0 ELSE peers.failures + 1 END,
       last_error = @error`,
  ).run({ url, at, error });
}

export function forgetPeer(db: Db, url: string): void {
  db.prepare('DELETE FROM peers WHERE url = ?').run(url);
}
