/**
 * Each lesson's running sum of its sources' vectors, kept between nights so a night reads the sum instead of
 * every source of every lesson again: after a year the sources are tens of thousands of episodes, and reading
 * them was most of a night's time.
 *
 * A stored sum stands for the sources as they were when it was written, and names the first and the latest of
 * them. Whatever changes that set or its order — an episode assigned to or taken from a lesson, made live or
 * not, given another kind or time, removed, or its vector written or removed — deletes the sums it touches here,
 * in the same transaction, whoever makes the change; the next night adds them up again from the sources.
 *
 * The partial indexes find the surprises waiting for a lesson, and the episodes decay may still archive, without
 * reading the rows of every episode ever kept.
 */
export const sql = `
  CREATE TABLE lesson_sums (
    lesson_id INTEGER PRIMARY KEY REFERENCES lessons(id),
    space TEXT NOT NULL,
    dims INTEGER NOT NULL,
    count INTEGER NOT NULL,
    squares REAL NOT NULL,
    sum BLOB NOT NULL,
    first_source INTEGER,
    latest_source INTEGER
  );

  CREATE TRIGGER lesson_sums_episode_changed AFTER UPDATE OF lesson_id, live, kind, happened_at ON episodes
  WHEN OLD.lesson_id IS NOT NULL OR NEW.lesson_id IS NOT NULL
  BEGIN
    DELETE FROM lesson_sums WHERE lesson_id IN (OLD.lesson_id, NEW.lesson_id);
  END;

  CREATE TRIGGER lesson_sums_episode_added AFTER INSERT ON episodes
  WHEN NEW.lesson_id IS NOT NULL
  BEGIN
    DELETE FROM lesson_sums WHERE lesson_id = NEW.lesson_id;
  END;

  CREATE TRIGGER lesson_sums_episode_removed AFTER DELETE ON episodes
  WHEN OLD.lesson_id IS NOT NULL
  BEGIN
    DELETE FROM lesson_sums WHERE lesson_id = OLD.lesson_id;
  END;

  CREATE TRIGGER lesson_sums_vector_added AFTER INSERT ON vectors
  WHEN NEW.owner = 'episode'
  BEGIN
    DELETE FROM lesson_sums WHERE lesson_id = (SELECT lesson_id FROM episodes WHERE id = NEW.owner_id);
  END;

  CREATE TRIGGER lesson_sums_vector_changed AFTER UPDATE ON vectors
  WHEN OLD.owner = 'episode' OR NEW.owner = 'episode'
  BEGIN
    DELETE FROM lesson_sums WHERE lesson_id IN (
      SELECT lesson_id FROM episodes WHERE id IN (OLD.owner_id, NEW.owner_id)
    );
  END;

  CREATE TRIGGER lesson_sums_vector_removed AFTER DELETE ON vectors
  WHEN OLD.owner = 'episode'
  BEGIN
    DELETE FROM lesson_sums WHERE lesson_id = (SELECT lesson_id FROM episodes WHERE id = OLD.owner_id);
  END;

  CREATE INDEX episodes_waiting ON episodes (id)
  WHERE lesson_id IS NULL AND archived = 0 AND live = 1 AND kind IN ('error', 'correction', 'surprise');

  CREATE INDEX episodes_fading ON episodes (touched_at, strength) WHERE archived = 0 AND live = 1;
`;
