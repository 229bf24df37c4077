/**
 * Ingest must derive exactly what it derived when these snapshots were written: the same episodes, offers,
 * warnings and (for the awkward corpus) the same turns, byte for byte. Speed work on the readers, the store
 * or the detectors keeps every snapshot here unchanged; a change of rules updates them on purpose.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTranscripts } from '../../bench/_generate.ts';
import { type IngestReport, ingest, ingestFromRaw } from '../../src/episodes/index.ts';
import { listRawFiles, openStore, type Store, turnsOfFile } from '../../src/store/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import {
  writeLongStringSession,
  writeMutatedSessions,
  writeSystematicSession,
} from './awkward-transcripts.ts';

const tempDir = useTempDirs();
const repo = resolve(import.meta.dirname, '../..');
const snapshots = join(import.meta.dirname, '__snapshots__');

/** One record per line, so a difference shows as the lines that differ. */
function format(records: readonly unknown[]): string {
  return `[\n${records.map((record) => JSON.stringify(record)).join(',\n')}\n]\n`;
}

/**
 * Everything ingest derived, without what depends on the clock or the temporary folder. `turns`: the stored turns
 * too, in full or as each file's count and SHA-256 (for long ones); `run`: only that run's warnings.
 */
function derived(
  store: Store,
  root: string,
  options: { turns?: 'full' | 'digest'; run?: number } = {},
): string {
  const { db } = store;
  const episodes = (db.prepare('SELECT * FROM episodes ORDER BY key').all() as Record<string, unknown>[]).map(
    ({ id, recorded_at, touched_at, detail, ...rest }) => ({ ...rest, detail: JSON.parse(detail as string) }),
  );
  const offers = (db.prepare('SELECT * FROM offers ORDER BY key').all() as Record<string, unknown>[]).map(
    ({ id, recorded_at, ...rest }) => rest,
  );
  const warnings =
    options.run === undefined
      ? db.prepare('SELECT run_id, file, line, reason FROM ingest_warnings ORDER BY id').all()
      : db
          .prepare('SELECT file, line, reason FROM ingest_warnings WHERE run_id = ? ORDER BY id')
          .all(options.run);
  const turns = listRawFiles(db).map((file) => {
    const stored = turnsOfFile(db, file.id);
    if (options.turns === 'full') return { file: file.path, turns: stored };
    const digest = createHash('sha256').update(JSON.stringify(stored)).digest('hex');
    return { file: file.path, turns: stored.length, sha256: digest };
  });
  const text = [
    format([{ episodes: episodes.length, offers: offers.length, warnings: warnings.length }]),
    format(episodes),
    format(offers),
    format(warnings),
    ...(options.turns ? [format(turns)] : []),
  ].join('');
  return text.replaceAll(root, '<root>').replaceAll(repo, '<repo>');
}

/**
 * Two ways to ingest, held to the same snapshots: `ingest` called in this process (from the sources, where transcripts
 * are parsed on the calling thread), and the built `remem ingest` (which parses them on a worker thread).
 */
const ways = {
  'in this process': async (home: string, claudeDirs: string[], codexDirs: string[], now: string) => {
    const store = openStore(home);
    try {
      return await ingest(store, { now, claudeDirs, codexDirs, eventFiles: [] });
    } finally {
      store.close();
    }
  },
  'by the built remem': async (home: string, claudeDirs: string[], codexDirs: string[], now: string) => {
    const flags = [
      ...claudeDirs.flatMap((dir) => ['--claude', dir]),
      ...codexDirs.flatMap((dir) => ['--codex', dir]),
    ];
    const result = remem(['ingest', ...flags, '--json'], { home, now });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return result.json<IngestReport>();
  },
};

describe.each(Object.entries(ways))(
  'ingest %s derives exactly what it derived before',
  (_way, ingestWith) => {
    async function ingestInto(
      home: string,
      claudeDirs: string[],
      codexDirs: string[] = [],
      now = '2026-06-01T00:00:00.000Z',
    ) {
      await ingestWith(home, claudeDirs, codexDirs, now);
      return openStore(home);
    }

    it('from the fixture and example transcripts', async () => {
      const root = tempDir();
      const store = await ingestInto(
        join(root, 'home'),
        [join(repo, 'test/fixtures/claude'), join(repo, 'examples/claude')],
        [join(repo, 'test/fixtures/codex')],
      );
      const text = derived(store, root, { turns: 'full' });
      store.close();
      await expect(text).toMatchFileSnapshot(join(snapshots, 'equivalence-fixtures.json'));
    });

    it('from a generated corpus read in two steps, the first ending inside a line', async () => {
      const root = tempDir();
      const full = join(root, 'full');
      generateTranscripts(full, 4 * 1024 * 1024, 11);
      const claude = join(root, 'claude');
      const files = listJsonl(full);
      for (const file of files) {
        const bytes = readFileSync(file);
        const target = join(claude, file.slice(full.length));
        mkdirSync(resolve(target, '..'), { recursive: true });
        writeFileSync(target, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      }
      (await ingestInto(join(root, 'home'), [claude])).close();
      for (const file of files) writeFileSync(join(claude, file.slice(full.length)), readFileSync(file));
      const second = await ingestWith(join(root, 'home'), [claude], [], '2026-06-02T00:00:00.000Z');
      const store = openStore(join(root, 'home'));
      // Each file grew where the first read stopped: none is read again from its start.
      expect(second.filesRestarted).toBe(0);
      expect(second.filesRead).toBe(files.length);
      const text = derived(store, root);
      store.close();
      await expect(text).toMatchFileSnapshot(join(snapshots, 'equivalence-generated.json'));
    });

    it('from transcripts full of awkward lines, and again from the archive alone', async () => {
      const root = tempDir();
      const claude = join(root, 'claude');
      writeMutatedSessions(claude);
      writeSystematicSession(claude);
      writeLongStringSession(claude);
      const store = await ingestInto(join(root, 'home'), [claude]);
      const text = derived(store, root, { turns: 'digest', run: 1 });
      ingestFromRaw(store, { now: '2026-06-03T00:00:00.000Z' });
      const again = derived(store, root, { turns: 'digest', run: 2 });
      store.close();
      await expect(text).toMatchFileSnapshot(join(snapshots, 'equivalence-awkward.json'));
      expect(again).toBe(text);
    });
  },
);

function listJsonl(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
