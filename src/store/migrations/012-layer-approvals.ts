/**
 * A layer's lessons reach agents only once the person approved them: `remem layer add` holds what it adds for
 * review unless the person passes `--trust` at a terminal, and a lesson that appears in the file later waits
 * for review too. The lessons layers held before this migration had already been shown: they stay approved.
 */
export const sql = `
  CREATE TABLE layer_approvals (
    path TEXT NOT NULL REFERENCES layers (path) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    approved_at TEXT NOT NULL,
    PRIMARY KEY (path, hash)
  );
  INSERT INTO layer_approvals (path, hash, approved_at)
    SELECT path, hash, COALESCE(NULLIF(updated, ''), '') FROM layer_lessons;
  `;
