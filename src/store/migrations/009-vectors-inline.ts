/**
 * The vectors again, in a table with row ids. Without them a row is stored in the primary key's tree, where a
 * row over about 1,000 bytes spills to an overflow page of its own: a 256-dimension vector (1,024 bytes) took
 * some 4.7 KB on disk, and reading one read two pages. Here a vector is stored inline beside its key, and the
 * primary key is an index beside the table.
 */
export const sql = `
  CREATE TABLE vectors_inline (
    owner TEXT NOT NULL CHECK (owner IN ('episode', 'lesson')),
    owner_id INTEGER NOT NULL,
    space TEXT NOT NULL,
    dims INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (owner, owner_id)
  );
  INSERT INTO vectors_inline (owner, owner_id, space, dims, data)
    SELECT owner, owner_id, space, dims, data FROM vectors ORDER BY owner, owner_id;
  DROP TABLE vectors;
  ALTER TABLE vectors_inline RENAME TO vectors;
`;
