import { join } from 'node:path';
import { RememError } from '../core/index.ts';
import type { CommonsStore } from './store.ts';

/** The default database of `remem commons serve`: a SQLite file beside the memory's own. */
export function defaultCommonsDb(home: string): string {
  return `sqlite:${join(home, 'commons.db')}`;
}

/**
 * Opens the store a URL names: `sqlite:PATH` (`sqlite::memory:` for a throwaway one) or `postgres://…`
 * (`?schema=NAME` keeps its tables in a schema of their own). The PostgreSQL driver loads only when asked for.
 */
export async function openCommonsStore(url: string): Promise<CommonsStore> {
  if (url.startsWith('sqlite:')) {
    const { openSqliteCommonsStore } = await import('./sqlite-store.ts');
    return openSqliteCommonsStore(url.slice('sqlite:'.length));
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const { openPostgresCommonsStore } = await import('./postgres-store.ts');
    return openPostgresCommonsStore(url);
  }
  throw new RememError('bad_db', `--db must be sqlite:PATH or postgres://…, not ${url}`);
}
