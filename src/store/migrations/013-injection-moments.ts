/**
 * The REST API's `/memory/lessons` is its own moment (`api`), no longer counted as an MCP answer. SQLite cannot
 * widen a CHECK in place: the log is copied into a table with the wider one, row for row, ids kept, and its
 * append-only triggers and index put back.
 */
export const sql = `
  DROP TRIGGER injections_no_update;
  DROP TRIGGER injections_no_delete;
  CREATE TABLE injections_next (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    session TEXT,
    moment TEXT NOT NULL CHECK (moment IN ('prompt', 'stop', 'tool', 'render', 'proxy', 'mcp', 'recall', 'api')),
    shown INTEGER NOT NULL CHECK (shown IN (0, 1)),
    lesson_hashes TEXT NOT NULL DEFAULT '[]',
    considered INTEGER NOT NULL CHECK (considered >= 0),
    dropped INTEGER NOT NULL CHECK (dropped >= 0),
    reasons TEXT NOT NULL DEFAULT '{}'
  );
  INSERT INTO injections_next (id, at, session, moment, shown, lesson_hashes, considered, dropped, reasons)
    SELECT id, at, session, moment, shown, lesson_hashes, considered, dropped, reasons FROM injections;
  DROP TABLE injections;
  ALTER TABLE injections_next RENAME TO injections;
  CREATE INDEX injections_session ON injections (session, at);
  CREATE TRIGGER injections_no_update BEFORE UPDATE ON injections BEGIN SELECT RAISE(ABORT, 'the injection log is append-only'); END;
  CREATE TRIGGER injections_no_delete BEFORE DELETE ON injections BEGIN SELECT RAISE(ABORT, 'the injection log is append-only'); END;
  `;
