/**
 * A project's sessions, newest first, without reading every other episode: session start sizes itself by the
 * project's latest sessions (`latestSessionCorrections`), and the verify pass counts them (`sessionStarts`).
 */
export const sql = `
  CREATE INDEX episodes_project_sessions ON episodes (project, happened_at) WHERE kind = 'session';
  `;
