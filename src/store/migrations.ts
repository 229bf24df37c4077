/**
 * Numbered migrations, run in order on open. `PRAGMA user_version` holds how many have run:
 * that number is the schema version, and a later release reads it to know what it opens.
 * Never edit a migration that has shipped; add the next one.
 */
export const migrations: readonly string[] = [
  // 1: the raw stream, turns and episodes.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE raw_files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    archive TEXT NOT NULL,
    archive_bytes INTEGER NOT NULL DEFAULT 0,
    generation INTEGER NOT NULL DEFAULT 0,
    offset INTEGER NOT NULL DEFAULT 0,
    lines INTEGER NOT NULL DEFAULT 0,
    prefix_hash TEXT NOT NULL DEFAULT '',
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ms REAL NOT NULL DEFAULT 0,
    read_at TEXT NOT NULL
  );
  CREATE INDEX raw_files_session ON raw_files (agent, session);

  CREATE TABLE stale_sessions (
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    PRIMARY KEY (agent, session)
  ) WITHOUT ROWID;

  CREATE TABLE turns (
    file_id INTEGER NOT NULL REFERENCES raw_files (id),
    line INTEGER NOT NULL,
    part INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (file_id, line, part)
  ) WITHOUT ROWID;

  CREATE TABLE episodes (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('session', 'error', 'environment', 'correction', 'surprise', 'note')),
    origin TEXT NOT NULL CHECK (origin IN ('transcript', 'event')),
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    project TEXT,
    happened_at TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    said TEXT,
    agent_before TEXT,
    detail TEXT NOT NULL DEFAULT '{}',
    source_file TEXT,
    source_line INTEGER,
    strength REAL NOT NULL DEFAULT 1,
    touched_at TEXT NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0,
    live INTEGER NOT NULL DEFAULT 1,
    lesson_id INTEGER
  );
  CREATE INDEX episodes_session ON episodes (agent, session);
  CREATE INDEX episodes_kind ON episodes (kind, happened_at);
  CREATE INDEX episodes_lesson ON episodes (lesson_id);

  CREATE TABLE offers (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('offer', 'waiting', 'question')),
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    project TEXT,
    happened_at TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    reply_tail TEXT NOT NULL,
    answer TEXT CHECK (answer IN ('corrected', 'declined', 'approved', 'other')),
    answer_text TEXT
  );
  CREATE INDEX offers_session ON offers (agent, session);

  CREATE TABLE ingest_runs (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    files_read INTEGER NOT NULL DEFAULT 0,
    bytes_read INTEGER NOT NULL DEFAULT 0,
    episodes_added INTEGER NOT NULL DEFAULT 0,
    warnings INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE ingest_warnings (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES ingest_runs (id),
    file TEXT NOT NULL,
    line INTEGER,
    reason TEXT NOT NULL
  );
  `,
  // 2: vectors, lessons, predictions, tombstones, the audit log, sleeps.
  `
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
  `,
];
