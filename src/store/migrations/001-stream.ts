/** The raw stream, turns and episodes. */
export const sql = `
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
  `;
