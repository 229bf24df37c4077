import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { deleteTurnsOfFile, insertTurns, openStore, turnsOfFile } from '../../src/store/index.ts';
import { migrations } from '../../src/store/migrations.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

const turn = (line: number, part: number, text = `line ${line}`) => ({
  line,
  part,
  at: '',
  type: 'prompt',
  text,
});

function addFile(db: Database.Database, path: string): number {
  return Number(
    db
      .prepare(
        "INSERT INTO raw_files (path, agent, session, archive, read_at) VALUES (?, 'claude-code', 's', 'a', 'now')",
      )
      .run(path).lastInsertRowid,
  );
}

describe('turns', () => {
  it('gives back a file’s turns in line order, read after read, and none once deleted', () => {
    const store = openStore(tempDir());
    const id = addFile(store.db, '/t/a.jsonl');
    insertTurns(store.db, id, [turn(1, 0), turn(1, 1), turn(3, 0)]);
    insertTurns(store.db, id, []);
    insertTurns(store.db, id, [turn(4, 0), turn(7, 0)]);
    expect(turnsOfFile(store.db, id).map((t) => [t.line, t.part])).toEqual([
      [1, 0],
      [1, 1],
      [3, 0],
      [4, 0],
      [7, 0],
    ]);
    deleteTurnsOfFile(store.db, id);
    expect(turnsOfFile(store.db, id)).toEqual([]);
    store.close();
  });

  it('moves the turns of a store kept one row per turn into chunks, unchanged and in order', () => {
    const home = tempDir();
    const before = migrations.findIndex((sql) => sql.includes('turn_chunks'));
    const raw = new Database(join(home, 'remem.db'));
    for (const sql of migrations.slice(0, before)) raw.exec(sql);
    raw.pragma(`user_version = ${before}`);
    const a = addFile(raw, '/t/a.jsonl');
    const b = addFile(raw, '/t/b.jsonl');
    const kept = [turn(10, 0, 'ten'), turn(2, 1, 'two b'), turn(2, 0, 'two "a"\n'), turn(11, 0, 'ünï')];
    const insert = raw.prepare('INSERT INTO turns (file_id, line, part, data) VALUES (?, ?, ?, ?)');
    for (const t of kept) insert.run(a, t.line, t.part, JSON.stringify(t));
    insert.run(b, 5, 0, JSON.stringify(turn(5, 0)));
    raw.close();

    const store = openStore(home);
    expect(turnsOfFile(store.db, a)).toEqual([kept[2], kept[1], kept[0], kept[3]]);
    expect(turnsOfFile(store.db, b)).toEqual([turn(5, 0)]);
    insertTurns(store.db, b, [turn(6, 0)]);
    expect(turnsOfFile(store.db, b)).toEqual([turn(5, 0), turn(6, 0)]);
    store.close();
  });
});
