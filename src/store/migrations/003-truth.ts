/** Relations between lessons, the audit of every injection, and the indexes the agent's read path needs. */
export const sql = `
  CREATE TABLE relations (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('supports', 'refutes', 'supersedes', 'derived_from')),
    from_id INTEGER NOT NULL REFERENCES lessons (id),
    to_id INTEGER NOT NULL REFERENCES lessons (id),
    actor TEXT NOT NULL CHECK (actor IN ('sleep', 'person')),
    rules TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    -- When what the relation is about happened, and when Remem learned it: "as of" reads the second.
    happened_at TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    CHECK (from_id <> to_id),
    UNIQUE (kind, from_id, to_id)
  );
  CREATE INDEX relations_to ON relations (to_id, kind);
  -- A relation is a fact about a moment; a later fact is a new row.
  CREATE TRIGGER relations_no_update BEFORE UPDATE ON relations BEGIN SELECT RAISE(ABORT, 'relations are append-only'); END;
  CREATE TRIGGER relations_no_delete BEFORE DELETE ON relations BEGIN SELECT RAISE(ABORT, 'relations are append-only'); END;

  -- One row per injection, without its payload: which lessons (by hash), how many were weighed, why some were not.
  CREATE TABLE injections (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    session TEXT,
    moment TEXT NOT NULL CHECK (moment IN ('prompt', 'stop', 'tool', 'render', 'proxy', 'mcp', 'recall')),
    shown INTEGER NOT NULL CHECK (shown IN (0, 1)),
    lesson_hashes TEXT NOT NULL DEFAULT '[]',
    considered INTEGER NOT NULL CHECK (considered >= 0),
    dropped INTEGER NOT NULL CHECK (dropped >= 0),
    reasons TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX injections_session ON injections (session, at);
  CREATE TRIGGER injections_no_update BEFORE UPDATE ON injections BEGIN SELECT RAISE(ABORT, 'the injection log is append-only'); END;
  CREATE TRIGGER injections_no_delete BEFORE DELETE ON injections BEGIN SELECT RAISE(ABORT, 'the injection log is append-only'); END;

  -- The hook's read: lessons that may reach an agent, by review state and scope.
  CREATE INDEX lessons_reach ON lessons (review, project) WHERE merged_into IS NULL AND vetoed_at IS NULL;
  -- When a lesson was last seen again, without reading its episodes.
  CREATE INDEX episodes_lesson_seen ON episodes (lesson_id, happened_at);
  `;
