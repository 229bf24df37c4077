/** Vectors, lessons, predictions, tombstones, the audit log, sleeps. */
export const sql = `
  CREATE TABLE vectors (
    owner TEXT NOT NULL CHECK (owner IN ('episode', 'lesson')),
    owner_id INTEGER NOT NULL,
    space TEXT NOT NULL,
    dims INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (owner, owner_id)
  ) WITHOUT ROWID;

  CREATE TABLE lessons (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('error', 'correction', 'surprise')),
    text TEXT NOT NULL,
    seen INTEGER NOT NULL DEFAULT 1,
    strength REAL NOT NULL DEFAULT 1,
    project TEXT,
    origin TEXT NOT NULL DEFAULT 'self',
    review TEXT NOT NULL DEFAULT 'pending_review' CHECK (review IN ('pending_review', 'approved', 'rejected')),
    happened_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    touched_at TEXT NOT NULL,
    decayed_at TEXT NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0,
    merged_into INTEGER REFERENCES lessons (id),
    vetoed_at TEXT,
    rules TEXT NOT NULL DEFAULT ''
  );
  CREATE INDEX lessons_hash ON lessons (hash);
  CREATE INDEX lessons_kind ON lessons (kind, project);

  CREATE TABLE predictions (
    id INTEGER PRIMARY KEY,
    lesson_id INTEGER NOT NULL REFERENCES lessons (id),
    made_at TEXT NOT NULL,
    due_at TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'confirmed', 'failed')),
    resolved_at TEXT,
    episode_id INTEGER REFERENCES episodes (id)
  );
  CREATE INDEX predictions_lesson ON predictions (lesson_id, state);

  CREATE TABLE tombstones (
    hash TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    lesson_id INTEGER,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    rules TEXT NOT NULL,
    lesson_id INTEGER,
    hash TEXT,
    reason TEXT NOT NULL DEFAULT '',
    related TEXT NOT NULL DEFAULT '[]',
    refers_to INTEGER REFERENCES audit (id)
  );
  CREATE INDEX audit_lesson ON audit (lesson_id);
  -- Append-only, enforced here: a later fact is a new row pointing at the first.
  CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

  CREATE TABLE sleeps (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    space TEXT NOT NULL,
    report TEXT NOT NULL
  );
  `;
