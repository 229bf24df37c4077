/**
 * The lessons of each layer as last read and checked (protocol §6 composition). Every path an agent reads
 * lessons through composes them with this memory's own, so a hook never parses or verifies a file; the
 * file is read again when it is added again and on every nightly run.
 */
export const sql = `
  ALTER TABLE layers ADD COLUMN read_at TEXT;
  CREATE TABLE layer_lessons (
    path TEXT NOT NULL REFERENCES layers (path) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    seen INTEGER NOT NULL,
    strength REAL NOT NULL,
    updated TEXT NOT NULL,
    -- The origin of a signed record; null for a plain line of a lessons file.
    origin TEXT,
    UNIQUE (path, hash)
  );
  CREATE INDEX layer_lessons_hash ON layer_lessons (hash);
  `;
