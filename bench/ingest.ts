/**
 * Ingest throughput on 100 MB of generated Claude Code transcripts, as a ratio to merely reading and
 * JSON.parse-ing the same bytes in the same run (the floor). Aim: at least 0.41.
 *
 * Ingest is timed as a user runs it: the built `remem ingest` in a process of its own, from start to exit, so the
 * figure holds everything the command does (opening the store, archiving, parsing, storing, deriving episodes).
 * `npm run bench -- ingest [MB] [--cpu-prof DIR]` writes that process's CPU profile to DIR.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IngestReport } from '../src/episodes/index.ts';
import { generateTranscripts } from './_generate.ts';

const binary = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'remem.js');

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

/** Runs `remem ingest` on the corpus in a fresh home; its report and how long the process took. */
function ingestOnce(
  claude: string,
  home: string,
  profileDir: string | undefined,
): { report: IngestReport; ms: number } {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const started = performance.now();
  const result = spawnSync(process.execPath, [...profile, binary, 'ingest', '--claude', claude, '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: home,
      REMEM_HOME: home,
      REMEM_NOW: '2026-06-01T00:00:00.000Z',
    },
  });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`remem ingest failed (${result.status}): ${result.stderr}`);
  return { report: JSON.parse(result.stdout) as IngestReport, ms };
}

export async function run(args: string[]): Promise<void> {
  const profileAt = args.indexOf('--cpu-prof');
  const profileDir = profileAt === -1 ? undefined : resolve(args[profileAt + 1] ?? 'ingest-profile');
  const sizes = args.filter(
    (_, index) => profileAt === -1 || (index !== profileAt && index !== profileAt + 1),
  );
  const megabytes = Number(sizes[0] ?? 100);
  const root = mkdtempSync(join(tmpdir(), 'remem-bench-ingest-'));
  try {
    const claude = join(root, 'claude');
    const made = generateTranscripts(claude, megabytes * 1024 * 1024);
    const files = listJsonl(claude);
    console.log(`generated ${made.files} sessions, ${(made.bytes / 1024 / 1024).toFixed(1)} MB`);
    floor(files.slice(0, 20)); // warm the page cache and the JIT alike
    const floorMs = floor(files);
    const { report, ms: ingestMs } = ingestOnce(claude, join(root, 'home'), profileDir);
    const mb = made.bytes / 1024 / 1024;
    console.log(
      `floor (read + JSON.parse): ${floorMs.toFixed(0)} ms, ${(mb / (floorMs / 1000)).toFixed(0)} MB/s`,
    );
    console.log(
      `ingest: ${ingestMs.toFixed(0)} ms, ${(mb / (ingestMs / 1000)).toFixed(0)} MB/s, ${report.episodesAdded} episodes, ${report.warningCount} warnings`,
    );
    console.log(`ratio (floor / ingest): ${(floorMs / ingestMs).toFixed(2)}  (aim ≥ 0.41)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
