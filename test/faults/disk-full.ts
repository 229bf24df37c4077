/**
 * A full disk under `remem ingest` and `remem sleep`: a small tmpfs filled to within `slack` bytes (as root),
 * else a limit on the size of any file the process writes (`ulimit -f`), which fails writes the same way.
 * The command must fail with one line naming the problem, and the store must stay whole and keep what it had.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statfsSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Corpus } from './corpus.ts';
import {
  checkIntegrity,
  copyHome,
  envFor,
  type Finished,
  lostRows,
  readState,
  rememBinary,
  runRemem,
  type StoreState,
  stateDifference,
} from './harness.ts';

export type DiskWay = 'tmpfs' | 'file-size-limit';
export type DiskCommand = 'ingest' | 'sleep';

const NOW = '2026-02-01T04:00:00.000Z';
const EARLIER = '2026-01-20T04:00:00.000Z';

/** A tmpfs when this process may mount one, else the file size limit. */
export function chooseDiskWay(probeDir: string): DiskWay {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'file-size-limit';
  mkdirSync(probeDir, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probeDir]).status === 0;
  if (mounted) spawnSync('umount', [probeDir]);
  return mounted ? 'tmpfs' : 'file-size-limit';
}

export interface DiskFullSetup {
  way: DiskWay;
  /** Homes as they are before each command. */
  before: Record<DiskCommand, string>;
  args: Record<DiskCommand, string[]>;
  /** What each command leaves on a disk with room. */
  reference: Record<DiskCommand, StoreState>;
  /** Two sleeps at the same time: what a rerun leaves after a night that was committed before the disk filled. */
  sleptTwice: StoreState;
}

/** A home that has read one project's sessions and slept on them; then the homes and references for each command. */
export async function prepareDiskFull(corpus: Corpus, root: string, way: DiskWay): Promise<DiskFullSetup> {
  const first = join(root, 'first-project');
  const project = readdirSync(join(corpus.claude, 'projects'))[0]!;
  copyHome(join(corpus.claude, 'projects', project), join(first, 'projects', project));
  const ingestBefore = join(root, 'before-ingest');
  mkdirSync(ingestBefore, { recursive: true });
  const must = async (args: string[], home: string, now: string) => {
    const result = await runRemem(args, { home, now });
    if (result.code !== 0) throw new Error(`remem ${args.join(' ')}: ${result.stderr}`);
  };
  await must(['ingest', '--claude', first], ingestBefore, EARLIER);
  await must(['sleep'], ingestBefore, EARLIER);
  const ingestArgs = ['ingest', '--claude', corpus.claude, '--events', corpus.events];
  const sleepBefore = join(root, 'before-sleep');
  copyHome(ingestBefore, sleepBefore);
  await must(ingestArgs, sleepBefore, NOW);
  const afterSleep = join(root, 'after-sleep');
  copyHome(sleepBefore, afterSleep);
  await must(['sleep'], afterSleep, NOW);
  const reference = { ingest: readState(sleepBefore), sleep: readState(afterSleep) };
  await must(['sleep'], afterSleep, NOW);
  return {
    way,
    before: { ingest: ingestBefore, sleep: sleepBefore },
    args: { ingest: ingestArgs, sleep: ['sleep'] },
    reference,
    sleptTwice: readState(afterSleep),
  };
}

export interface DiskFullTrial {
  command: DiskCommand;
  way: DiskWay;
  slack: number;
  /** The disk ran out under the command (else it had room enough and finished). */
  failed: boolean;
  /** It finished with exit 0 while the disk refused some of its writes. */
  quiet: boolean;
  code: number | null;
  /** What the command said on stderr. */
  said: string;
  /** One line that names the problem. */
  clear: boolean;
  integrity: string;
  lost: string[];
  /** A sleep is one transaction: the store is as it was, or the night is whole. */
  partial: string | null;
  /** How the rerun on a disk with room differs from a run that never met a full disk; null when it does not. */
  difference: string | null;
}

function largestFile(dir: string): number {
  let largest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) largest = Math.max(largest, statSync(join(entry.parentPath, entry.name)).size);
  }
  return largest;
}

/** Fills the file system under `dir` until `slack` bytes are left. */
function fill(dir: string, slack: number): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const block = Buffer.alloc(1024 * 1024, 0x5a);
  try {
    for (;;) {
      const { bavail, bsize } = statfsSync(dir);
      const room = bavail * bsize - slack;
      if (room <= 0) break;
      writeSync(fd, block, 0, Math.min(block.length, room));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

function runLimited(args: string[], home: string, limitBytes: number): Promise<Finished> {
  const started = performance.now();
  const blocks = Math.max(1, Math.ceil(limitBytes / 1024));
  const result = spawnSync(
    'sh',
    ['-c', `ulimit -f ${blocks} && exec "$0" "$@"`, process.execPath, rememBinary(), ...args],
    { env: envFor({ home, now: NOW }), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  return Promise.resolve({
    code: result.status,
    signal: result.signal,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    ms: performance.now() - started,
  });
}

/** One trial: the command on a disk that has `slack` bytes left, then the checks, then a rerun with room. */
export async function diskFullTrial(
  setup: DiskFullSetup,
  command: DiskCommand,
  slack: number,
  dir: string,
): Promise<DiskFullTrial> {
  mkdirSync(dir, { recursive: true });
  const mounted = setup.way === 'tmpfs';
  if (mounted) execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir]);
  const home = join(dir, 'home');
  try {
    copyHome(setup.before[command], home);
    const before = readState(home);
    let result: Finished;
    if (mounted) {
      fill(dir, slack);
      result = await runRemem(setup.args[command], { home, now: NOW });
      rmSync(join(dir, 'filler'));
    } else {
      result = await runLimited(setup.args[command], home, largestFile(home) + slack);
    }
    const said = result.stderr.trim();
    const failed = result.code !== 0;
    const quiet = !failed && /ENOSPC|EFBIG|EDQUOT|disk is full|SQLITE_FULL/.test(result.stdout + said);
    const clear =
      result.code === 1 &&
      said.split('\n').length === 1 &&
      /disk is full|refused a write|largest size/.test(said);
    const integrity = checkIntegrity(home);
    const after = readState(home);
    const lost = lostRows(before, after);
    const partial =
      command === 'sleep' && stateDifference(after, before) !== null
        ? stateDifference(after, setup.reference.sleep)
        : null;
    const rerun = await runRemem(setup.args[command], { home, now: NOW });
    const difference =
      rerun.code !== 0
        ? `the rerun failed: ${rerun.stderr.trim().slice(0, 300)}`
        : stateDifference(
            readState(home),
            // A night committed before the disk filled is slept again by the rerun.
            command === 'sleep' && after.sleeps > before.sleeps ? setup.sleptTwice : setup.reference[command],
          );
    return {
      command,
      way: setup.way,
      slack,
      failed,
      quiet,
      code: result.code,
      said,
      clear,
      integrity,
      lost,
      partial,
      difference,
    };
  } finally {
    if (mounted) spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}
