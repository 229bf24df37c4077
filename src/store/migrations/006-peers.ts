/**
 * The peers gossip pulls from: configured ones (tracked here only for when they were last pulled) and ones
 * learned from other peers' indexes. A learned peer that keeps failing is forgotten.
 */
export const sql = `
  CREATE TABLE peers (
    url TEXT PRIMARY KEY,
    -- The peer whose index named it; NULL for a peer only ever configured.
    learned_from TEXT,
    learned_at TEXT,
    last_tried_at TEXT,
    last_ok_at TEXT,
    -- Pulls that failed in a row, and why the last one did.
    failures INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
  );
  `;
