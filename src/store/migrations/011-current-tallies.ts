/**
 * Each lesson's predictions as they stand now, kept up to date by triggers: what an agent's read and the nightly
 * views ask of every lesson. Counting them from the predictions themselves cost more each fortnight, since every
 * lesson makes one that often, for as long as the memory lives; an "as of" read still counts them (008's index).
 *
 * A write to a lesson's predictions counts that lesson's again, from its own few (the 008 index), so the table
 * is exactly the count of the predictions whoever writes them: inserted, resolved, or moved by a merge.
 */
/** Each lesson's tally, of the predictions `where` picks. */
const tallies = (where: string) => `
    INSERT INTO prediction_tallies
      SELECT lesson_id,
        COALESCE(SUM(state = 'confirmed' AND resolved_at IS NOT NULL), 0),
        COALESCE(SUM(state = 'failed' AND resolved_at IS NOT NULL), 0),
        COALESCE(SUM(state = 'open'), 0),
        MAX(CASE WHEN state = 'confirmed' THEN resolved_at END),
        MAX(CASE WHEN state = 'failed' THEN resolved_at END)
      FROM predictions ${where} GROUP BY lesson_id;`;

const recount = (lesson: string) => `
    DELETE FROM prediction_tallies WHERE lesson_id = ${lesson};${tallies(`WHERE lesson_id = ${lesson}`)}`;

export const sql = `
  CREATE TABLE prediction_tallies (
    lesson_id INTEGER PRIMARY KEY,
    confirmed INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    open INTEGER NOT NULL,
    last_confirmed_at TEXT,
    last_failed_at TEXT
  );
${tallies('')}

  CREATE TRIGGER prediction_tallies_added AFTER INSERT ON predictions
  BEGIN ${recount('NEW.lesson_id')}
  END;

  CREATE TRIGGER prediction_tallies_changed AFTER UPDATE ON predictions
  BEGIN ${recount('OLD.lesson_id')} ${recount('NEW.lesson_id')}
  END;

  CREATE TRIGGER prediction_tallies_removed AFTER DELETE ON predictions
  BEGIN ${recount('OLD.lesson_id')}
  END;
`;
