/**
 * Turns in chunks: one row per read of a transcript, holding that read's turns as one JSON array, where there was one
 * row per turn. Ingest writes and derivation reads a file's turns all at once; one row each way costs far less.
 */
export const sql = `
  CREATE TABLE turn_chunks (
    file_id INTEGER NOT NULL REFERENCES raw_files (id),
    -- The line of the chunk's first turn. Reads of one file never overlap, so a file's chunks in this order
    -- hold its turns in order.
    first_line INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (file_id, first_line)
  );
  INSERT INTO turn_chunks (file_id, first_line, data)
    SELECT file_id, MIN(line), '[' || group_concat(data, ',' ORDER BY line, part) || ']' FROM turns GROUP BY file_id;
  DROP TABLE turns;
  ALTER TABLE turn_chunks RENAME TO turns;
  `;
