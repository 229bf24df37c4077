import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { getVector, openStore, SCHEMA_VERSION } from '../../src/store/index.ts';
import { migrations } from '../../src/store/migrations.ts';
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

  it('an upgrade keeps every vector, stores them inline, and gives the old pages back', () => {
    const home = tempDir();
    const path = join(home, 'remem.db');
    // A store as release 8 left it: vectors in a table without row ids.
    const raw = new Database(path);
    for (const sql of migrations.slice(0, 8)) raw.exec(sql);
    raw.pragma('user_version = 8');
    const insert = raw.prepare(
      'INSERT INTO vectors (owner, owner_id, space, dims, data) VALUES (?, ?, ?, ?, ?)',
    );
    const data = (id: number) => Buffer.from(new Float32Array(256).fill(id / 7).buffer);
    // In a model's space: the hashed space's vectors are dropped further on (the next test).
    for (let id = 1; id <= 2000; id++) insert.run('episode', id, 'ollama:nomic', 256, data(id));
    raw.close();
    const before = statSync(path).size;
    const store = openStore(home);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    const table = store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'vectors'").get() as {
      sql: string;
    };
    expect(table.sql).not.toMatch(/WITHOUT ROWID/);
    expect(getVector(store.db, 'episode', 1234)?.data).toEqual(data(1234));
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM vectors').get() as { n: number }).n).toBe(2000);
    store.close();
    expect(statSync(path).size).toBeLessThan(before / 2);
  });

  it("an upgrade drops the vectors of the hashed space, made of other terms, and their sums, and keeps a model's", () => {
    const home = tempDir();
    const raw = new Database(join(home, 'remem.db'));
    const before = migrations.findIndex((sql) => sql.includes("DELETE FROM vectors WHERE space = 'hashed'"));
    for (const sql of migrations.slice(0, before)) raw.exec(sql);
    raw.pragma(`user_version = ${before}`);
    // The sums' lessons are left out: only the spaces matter here.
    raw.pragma('foreign_keys = OFF');
    const vector = raw.prepare(
      'INSERT INTO vectors (owner, owner_id, space, dims, data) VALUES (?, ?, ?, ?, ?)',
    );
    const data = Buffer.from(new Float32Array(4).fill(0.5).buffer);
    vector.run('episode', 1, 'hashed', 4, data);
    vector.run('lesson', 1, 'hashed', 4, data);
    vector.run('episode', 2, 'ollama:nomic', 4, data);
    const sum = raw.prepare(
      'INSERT INTO lesson_sums (lesson_id, space, dims, count, squares, sum) VALUES (?, ?, 4, 1, 1, ?)',
    );
    sum.run(1, 'hashed', data);
    sum.run(2, 'ollama:nomic', data);
    raw.close();
    const store = openStore(home);
    const left = (table: string) =>
      (store.db.prepare(`SELECT space FROM ${table}`).all() as { space: string }[]).map((row) => row.space);
    expect(left('vectors')).toEqual(['ollama:nomic']);
    expect(left('lesson_sums')).toEqual(['ollama:nomic']);
    store.close();
  });

  it('read-only opening never creates a store', () => {
    const home = tempDir();
    expect(() => openStore(join(home, 'missing'), { readonly: true })).toThrow(/cannot open/);
    expect(existsSync(join(home, 'missing', 'remem.db'))).toBe(false);
  });
});
