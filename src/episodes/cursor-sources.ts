import { readCursorComposers, readCursorWorkspaceItem } from '../store/index.ts';
import { cursorComposerLines, discoverCursorStores } from '../stream/index.ts';

/** A source of ingest.ts (`Source`), as this module makes them. */
interface CursorSource {
  path: string;
  agent: 'cursor';
  bytes?: Buffer;
  unreadable?: string;
}

/**
 * Cursor's chats under a user folder, one source per composer (docs/formats/cursor.md): the global store's
 * composers, each given the folder of the workspace whose `composer.composerData` names it. A store that cannot be
 * read (Cursor holding a lock past the wait) is a source that says so; the run warns and reads it the next time.
 */
export function cursorSources(userDir: string): CursorSource[] {
  const stores = discoverCursorStores(userDir);
  if (stores === null) return [];
  const folders = new Map<string, string>();
  for (const workspace of stores.workspaces) {
    if (workspace.folder === null) continue;
    for (const id of composersOpenedIn(workspace.store)) folders.set(id, workspace.folder);
  }
  try {
    return readCursorComposers(stores.global).flatMap((rows): CursorSource[] => {
      const bytes = cursorComposerLines({ ...rows, folder: folders.get(rows.id) ?? null });
      return bytes === null ? [] : [{ path: `${stores.global}#${rows.id}`, agent: 'cursor', bytes }];
    });
  } catch (error) {
    return [{ path: stores.global, agent: 'cursor', unreadable: (error as Error).message }];
  }
}

/** The composers a workspace's `composer.composerData` lists (`{"allComposers": [{"composerId": …}, …]}`). */
function composersOpenedIn(store: string): string[] {
  let text: string | null;
  try {
    text = readCursorWorkspaceItem(store, 'composer.composerData');
  } catch {
    return []; // a workspace store that cannot be read only costs its chats their folder
  }
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    const all =
      typeof parsed === 'object' && parsed !== null
        ? (parsed as { allComposers?: unknown }).allComposers
        : [];
    if (!Array.isArray(all)) return [];
    return all
      .map((head: unknown) =>
        typeof head === 'object' && head !== null ? (head as { composerId?: unknown }).composerId : undefined,
      )
      .filter((id): id is string => typeof id === 'string');
  } catch {
    return [];
  }
}
