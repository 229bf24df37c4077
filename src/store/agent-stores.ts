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

/** One composer (a Cursor chat) of Cursor's global store: its row, and the rows of its bubbles, as stored. */
export interface CursorComposerRows {
  id: string;
  /** The `composerData:<id>` value. */
  data: string;
  /** Every `bubbleId:<id>:<bubble id>` row, in the order they were written (rowid). */
  bubbles: { id: string; data: string }[];
}

/** A value of Cursor's key-value tables: declared BLOB, mostly written as text. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return value === null || value === undefined ? '' : String(value);
}

/** Opens one of Cursor's `state.vscdb` files read-only, waiting on a lock Cursor holds for a short while. */
function openCursorStore(path: string) {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma(`busy_timeout = ${defaultParams.stream.agentStoreBusyMs}`);
  return db;
}

/**
 * The composers in Cursor's global `state.vscdb` (docs/formats/cursor.md), each with its bubbles, read in one read
 * transaction from a connection opened read-only: Remem never writes there. Keys are read by range on the table's
 * unique index (`bubbleId:<id>:` up to `bubbleId:<id>;`), never by a scan of the values.
 */
export function readCursorComposers(path: string): CursorComposerRows[] {
  const db = openCursorStore(path);
  try {
    const hasTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cursorDiskKV'")
      .get();
    if (!hasTable) return [];
    return db.transaction(() => {
      const composers = db
        .prepare(
          "SELECT key, value FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' ORDER BY key",
        )
        .all() as { key: string; value: unknown }[];
      const bubblesOf = db.prepare(
        'SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY rowid',
      );
      return composers.map((row) => {
        const id = row.key.slice('composerData:'.length);
        const prefix = `bubbleId:${id}:`;
        const bubbles = bubblesOf.all(prefix, `bubbleId:${id};`) as { key: string; value: unknown }[];
        return {
          id,
          data: textOf(row.value),
          bubbles: bubbles.map((bubble) => ({
            id: bubble.key.slice(prefix.length),
            data: textOf(bubble.value),
          })),
        };
      });
    })();
  } finally {
    db.close();
  }
}

/** A value of a workspace's `state.vscdb` `ItemTable` (`composer.composerData`: the composers opened there), or null. */
export function readCursorWorkspaceItem(path: string, key: string): string | null {
  const db = openCursorStore(path);
  try {
    const hasTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ItemTable'")
      .get();
    if (!hasTable) return null;
    const row = db.prepare('SELECT value FROM ItemTable WHERE key = ?').get(key) as
      | { value: unknown }
      | undefined;
    return row ? textOf(row.value) : null;
  } finally {
    db.close();
  }
}
