/**
 * What the truth projection reads of every lesson's predictions (counts by state, the last confirmation and
 * failure as of a time) from the index alone: a memory makes a prediction per lesson every fortnight, so the
 * table grows for as long as the memory lives, and reading its rows was most of a view's time after a year.
 */
export const sql = `
  CREATE INDEX predictions_tally ON predictions (lesson_id, made_at, state, resolved_at);
`;
