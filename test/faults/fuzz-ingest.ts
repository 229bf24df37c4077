/**
 * Bad input beside good input, end to end: a transcript or events file with garbage lines put in yields exactly
 * the episodes of its valid lines, each garbage line a counted warning; and the hook process, given any input
 * on stdin, exits 0 and prints nothing but a hook answer.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { generateSession, seeded } from '../../bench/_generate.ts';
import { ingest } from '../../src/episodes/index.ts';
import { openStore } from '../../src/store/index.ts';
import { repoRoot } from '../helpers/remem.ts';
import { generateEvents } from './corpus.ts';
import { badText, checkProperty, type FuzzOptions, type FuzzOutcome, withGarbage } from './fuzz-kit.ts';
import { validLines } from './fuzz-units.ts';
import { runRemem } from './harness.ts';

const NOW = '2026-03-20T04:00:00.000Z';

type Format = 'claude' | 'codex' | 'events';

/** Where each format's file goes under a root, and the ingest options that read it. */
function placeFile(root: string, format: Format, text: string) {
  if (format === 'claude') {
    const folder = join(root, 'claude', 'projects', '-home-dev-shop');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'a1b2c3d4-0000-4000-a000-00000000000f.jsonl'), text);
    return { claudeDirs: [join(root, 'claude')], codexDirs: [], eventFiles: [] };
  }
  if (format === 'codex') {
    const folder = join(root, 'codex', 'sessions', '2026', '03', '14');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'rollout-2026-03-14T09-12-44-0195d2a1-7c3e-7b40-9f18-4a6e2c8d1b07.jsonl'),
      text,
    );
    return { claudeDirs: [], codexDirs: [join(root, 'codex')], eventFiles: [] };
  }
  writeFileSync(join(root, 'events.jsonl'), text);
  return { claudeDirs: [], codexDirs: [], eventFiles: [join(root, 'events.jsonl')] };
}

/** The episodes a file yields, as what they say (line numbers and recorded times aside), and the warnings' lines. */
async function episodesOf(format: Format, text: string): Promise<{ episodes: string[]; warned: number[] }> {
  const root = mkdtempSync(join(tmpdir(), 'remem-fuzz-'));
  try {
    const sources = placeFile(root, format, text);
    const store = openStore(join(root, 'home'));
    try {
      const report = await ingest(store, { now: NOW, ...sources });
      const rows = store.db
        .prepare('SELECT kind, agent, session, title, text, said, agent_before FROM episodes')
        .all()
        .map((row) => JSON.stringify(row))
        .sort();
      const warned = (
        store.db.prepare('SELECT line FROM ingest_warnings').all() as { line: number | null }[]
      ).map((row) => row.line ?? 0);
      if (report.warningCount !== warned.length)
        throw new Error('the warnings counted are not the warnings kept');
      return { episodes: rows, warned };
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function codexLines(): string[] {
  const dir = join(repoRoot, 'test', 'fixtures', 'codex', 'sessions');
  const file = readdirSync(dir, { recursive: true, withFileTypes: true }).find((entry) =>
    entry.name.endsWith('.jsonl'),
  )!;
  return readFileSync(join(file.parentPath, file.name), 'utf8').split('\n').filter(Boolean);
}

async function garbageProperty(format: Format, lines: string[], options: FuzzOptions): Promise<FuzzOutcome> {
  const clean = await episodesOf(format, `${lines.join('\n')}\n`);
  if (clean.episodes.length === 0) throw new Error(`the ${format} fixture yields no episodes`);
  return checkProperty(
    `${format} file with garbage lines`,
    withGarbage(lines),
    async ({ text, bad }) => {
      const damaged = await episodesOf(format, text);
      if (JSON.stringify(damaged.episodes) !== JSON.stringify(clean.episodes)) {
        const lost = clean.episodes.filter((row) => !damaged.episodes.includes(row)).length;
        const extra = damaged.episodes.filter((row) => !clean.episodes.includes(row)).length;
        return `${lost} episodes lost and ${extra} extra beside the garbage`;
      }
      // Blank garbage is passed over in a transcript; every other garbage line is a warning on its own line.
      const unnamed = bad.filter(
        (line) => text.split('\n')[line - 1]!.trim() !== '' && !damaged.warned.includes(line),
      );
      return unnamed.length ? `garbage on lines ${unnamed} passed without a warning` : null;
    },
    { ...options, keepsValid: true },
  );
}

async function primeProperty(options: FuzzOptions, valid: string[]): Promise<FuzzOutcome> {
  const home = mkdtempSync(join(tmpdir(), 'remem-fuzz-prime-'));
  try {
    return await checkProperty(
      'remem prime on any stdin',
      fc.oneof(
        badText(valid),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      ),
      async (input) => {
        const result = await runRemem(['prime'], { home, now: NOW, input });
        if (result.code !== 0) return `exit ${result.code}: ${result.stderr.slice(0, 200)}`;
        if (result.stdout !== '') {
          try {
            JSON.parse(result.stdout);
          } catch {
            return `printed something that is not a hook answer: ${result.stdout.slice(0, 100)}`;
          }
        }
        const said = result.stderr.trim();
        if (said.split('\n').length > 1) return `said more than one line: ${said.slice(0, 200)}`;
        return said === '' || /^remem prime: \S/.test(said)
          ? null
          : `said something unnamed: ${said.slice(0, 100)}`;
      },
      options,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Garbage beside valid lines in each format, and the hook process on random input (`primeRuns` runs). */
export async function fuzzIngest(options: FuzzOptions & { primeRuns: number }): Promise<FuzzOutcome[]> {
  const claude = generateSession(seeded(9), 'a1b2c3d4-0000-4000-a000-00000000000f', '/home/dev/shop', 0, 10)
    .split('\n')
    .filter(Boolean);
  const events = generateEvents(30, 4).split('\n').filter(Boolean);
  return [
    await garbageProperty('claude', claude, options),
    await garbageProperty('codex', codexLines(), options),
    await garbageProperty('events', events, options),
    await primeProperty({ ...options, numRuns: options.primeRuns }, validLines().payloads),
  ];
}
