/**
 * Correction candidates: messages the learned detector scored just under its threshold, kept at ingest only when
 * a judge is configured, each as the correction episode it would be (`key` is that episode's). At night the judge
 * answers yes or no; a yes is kept here too, so that deriving the session again keeps the correction it made.
 */
export const sql = `
  CREATE TABLE candidates (
    key TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    score REAL NOT NULL,
    draft TEXT NOT NULL,
    found_at TEXT NOT NULL,
    verdict TEXT CHECK (verdict IN ('yes', 'no')),
    judged_at TEXT,
    judged_by TEXT,
    tries INTEGER NOT NULL DEFAULT 0 CHECK (tries >= 0),
    last_error TEXT
  );
  CREATE INDEX candidates_session ON candidates (agent, session);
  CREATE INDEX candidates_pending ON candidates (verdict, score);
  `;
