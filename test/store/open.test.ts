import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, SCHEMA_VERSION } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

describe('openStore', () => {
  it('creates one SQLite file in WAL mode and runs every migration', () => {
    const home = join(tempDir(), 'home');
    const store = openStore(home);
    expect(existsSync(join(home, 'remem.db'))).toBe(true);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(['episodes', 'raw_files', 'turns', 'offers']),
    );
    store.close();
  });

  it('opens again without migrating twice', () => {
    const home = tempDir();
    openStore(home).close();
    const again = openStore(home);
    expect(again.schemaVersion).toBe(SCHEMA_VERSION);
    again.close();
  });

  it('refuses a store written by a newer release, saying which version it found', () => {
    const home = tempDir();
    openStore(home).close();
    const raw = new Database(join(home, 'remem.db'));
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    expect(() => openStore(home)).toThrow(/schema version/);
  });

  it('read-only opening never creates a store', () => {
    const home = tempDir();
    expect(() => openStore(join(home, 'missing'), { readonly: true })).toThrow(/cannot open/);
    expect(existsSync(join(home, 'missing', 'remem.db'))).toBe(false);
  });
});
