/** Sharing: the signed records held byte for byte, consent per project, who supports a lesson, the layers. */
export const sql = `
  -- One line per record kind, lesson hash and origin: the newest seen, exactly as signed, so it can be served
  -- again and audited. This memory's own records are kept here too, under its own origin.
  CREATE TABLE records (
    kind TEXT NOT NULL CHECK (kind IN ('lesson', 'confirm', 'revoke')),
    hash TEXT NOT NULL,
    origin TEXT NOT NULL,
    updated TEXT NOT NULL,
    line TEXT NOT NULL,
    received_at TEXT NOT NULL,
    PRIMARY KEY (kind, hash, origin)
  ) WITHOUT ROWID;
  CREATE INDEX records_origin ON records (origin);
  CREATE INDEX records_hash ON records (hash);

  -- Nothing is shared by default: a project's lessons leave the machine only once it is listed here.
  CREATE TABLE sharing_projects (
    project TEXT PRIMARY KEY,
    enabled_at TEXT NOT NULL
  ) WITHOUT ROWID;

  -- Another memory that confirmed or corroborated a lesson held here; it raises the lesson once, whichever way.
  CREATE TABLE lesson_support (
    lesson_id INTEGER NOT NULL REFERENCES lessons (id),
    origin TEXT NOT NULL,
    way TEXT NOT NULL CHECK (way IN ('confirm', 'corroborate')),
    hash TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (lesson_id, origin, way)
  ) WITHOUT ROWID;

  -- Lesson files an agent runs with below its own memory (protocol §6 composition).
  CREATE TABLE layers (
    path TEXT PRIMARY KEY,
    level TEXT NOT NULL CHECK (level IN ('common', 'domain')),
    added_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `;
