/**
 * Ingest throughput on 100 MB of generated Claude Code transcripts, as a ratio to merely reading and
 * JSON.parse-ing the same bytes in the same run (the floor). Aim: at least 0.4.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingest } from '../src/episodes/index.ts';
import { openStore } from '../src/store/index.ts';
import { generateTranscripts } from './_generate.ts';

function listJsonl(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function floor(files: string[]): number {
  const started = performance.now();
  let parsed = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line) {
        JSON.parse(line);
        parsed++;
      }
    }
  }
  if (parsed === 0) throw new Error('nothing parsed');
  return performance.now() - started;
}

export async function run(args: string[]): Promise<void> {
  const megabytes = Number(args[0] ?? 100);
  const root = mkdtempSync(join(tmpdir(), 'remem-bench-ingest-'));
  try {
    const claude = join(root, 'claude');
    const made = generateTranscripts(claude, megabytes * 1024 * 1024);
    const files = listJsonl(claude);
    console.log(`generated ${made.files} sessions, ${(made.bytes / 1024 / 1024).toFixed(1)} MB`);
    floor(files.slice(0, 20)); // warm the page cache and the JIT alike
    const floorMs = floor(files);
    const home = join(root, 'home');
    const store = openStore(home);
    const started = performance.now();
    const report = await ingest(store, {
      now: '2026-06-01T00:00:00.000Z',
      claudeDirs: [claude],
      codexDirs: [],
      eventFiles: [],
    });
    const ingestMs = performance.now() - started;
    store.close();
    const mb = made.bytes / 1024 / 1024;
    console.log(
      `floor (read + JSON.parse): ${floorMs.toFixed(0)} ms, ${(mb / (floorMs / 1000)).toFixed(0)} MB/s`,
    );
    console.log(
      `ingest: ${ingestMs.toFixed(0)} ms, ${(mb / (ingestMs / 1000)).toFixed(0)} MB/s, ${report.episodesAdded} episodes, ${report.warningCount} warnings`,
    );
    console.log(`ratio (floor / ingest): ${(floorMs / ingestMs).toFixed(2)}  (aim ≥ 0.40)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
