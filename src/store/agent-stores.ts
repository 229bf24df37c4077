import { createRequire } from 'node:module';
import { defaultParams } from '../core/index.ts';

/** One session of OpenCode's store, its rows as stored: messages in order, each with its parts. */
export interface OpencodeSessionRows {
  id: string;
  directory: string;
  parentId: string | null;
  title: string;
  messages: { id: string; timeCreated: number; data: string; parts: { id: string; data: string }[] }[];
}

/**
 * The sessions in OpenCode's SQLite store (`opencode.db`, docs/formats/opencode.md), read in one read transaction
 * from a connection opened read-only: Remem never writes there. OpenCode keeps the file in WAL mode, where a reader
 * never waits on its writer; a lock held in another mode is waited on for a short while, then the error is thrown.
 */
export function readOpencodeSessions(path: string): OpencodeSessionRows[] {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${defaultParams.stream.agentStoreBusyMs}`);
    return db.transaction(() => {
      const sessions = db
        .prepare('SELECT id, directory, parent_id AS parentId, title FROM session ORDER BY time_created, id')
        .all() as Omit<OpencodeSessionRows, 'messages'>[];
      const messagesOf = db.prepare(
        'SELECT id, time_created AS timeCreated, data FROM message WHERE session_id = ? ORDER BY time_created, id',
      );
      const partsOf = db.prepare('SELECT id, data FROM part WHERE message_id = ? ORDER BY id');
      return sessions.map((session) => ({
        ...session,
        messages: (
          messagesOf.all(session.id) as Omit<OpencodeSessionRows['messages'][number], 'parts'>[]
        ).map((message) => ({
          ...message,
          parts: partsOf.all(message.id) as { id: string; data: string }[],
        })),
      }));
    })();
  } finally {
    db.close();
  }
}
