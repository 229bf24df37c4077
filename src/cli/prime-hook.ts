import { closeSync, constants, fstatSync, openSync, read, readSync, writeSync } from 'node:fs';
// By the light front doors: each index.ts brings its folder's rule tables, the store or its writers, which cost a
// hook process more than its answer and which an answer from the index never needs.
import { createClock, defaultParams, resolveConfig } from '../core/light.ts';
import { openPrimeIndex, type PrimeIndex } from '../hook/index.ts';
import { answerHook, appendSessionLog, parsePayload } from '../prime/light.ts';
import type { Store } from '../store/index.ts';

/**
 * `remem prime`, bundled on its own into `dist/prime.cjs` (see the build script): one command for every hook
 * moment. It reads the hook's JSON on stdin and prints only the hook's answer on stdout. It never blocks the
 * agent: past its deadline, on any error, with a locked or missing store, it prints nothing and exits 0.
 *
 * It runs on every prompt, so it loads only what the moment needs: the prime index when it answers (no
 * SQLite), and no stream objects for stdin and stdout (loading Node's streams costs more than the answer).
 */
export async function runPrime(): Promise<number> {
  // process.hrtime, not performance: the `performance` global loads perf_hooks on first use.
  const started = process.hrtime.bigint();
  const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;
  let settled = false;
  const finish = (text: string) => {
    if (settled) return;
    settled = true;
    if (text) writeOut(text);
  };
  let debug = false;
  // The deadline's timer is set when the hook first waits on something outside it: stdin still being written,
  // the store, a model server. Work on the thread is not cut short by a timer anyway (its answer, past the
  // deadline, is not given), and setting the first timer costs a hook process more than most answers.
  let deadlineMs: number = defaultParams.hook.deadlineMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiting = () => {
    timer ??= setTimeout(() => failOpen(finish), Math.max(0, deadlineMs - elapsedMs()));
  };
  try {
    const config = resolveConfig(process.env);
    debug = config.debug;
    deadlineMs = config.params.hook.deadlineMs;
    const raw = await readStdin(waiting);
    const payload = parsePayload(raw);
    if ('refused' in payload) {
      tell(`remem prime: ${payload.refused}\n`);
      return 0;
    }
    const now = createClock(config.now).iso();
    let store: Store | null | undefined;
    let index: PrimeIndex | null | undefined;
    // SQLite is loaded only when the index cannot answer: opening it costs more than the rest of the hook.
    const db = async () => {
      if (store === undefined) {
        waiting();
        try {
          const { openStore } = await import('../store/index.ts');
          store = openStore(config.home, { readonly: true, busyTimeoutMs: 50 });
        } catch {
          store = null; // no memory yet: nothing to say
        }
      }
      return store?.db ?? null;
    };
    try {
      const answer = await answerHook(payload, {
        config,
        now,
        db,
        waiting,
        index: () => {
          index ??= openPrimeIndex(config.home);
          return index;
        },
      });
      const ms = Math.round(elapsedMs());
      // Work that held the thread past the deadline kept its timer from firing: the answer is too late to give.
      if (ms <= config.params.hook.deadlineMs) {
        finish(answer.output ? JSON.stringify(answer.output) : '');
        if (answer.log) {
          appendSessionLog(config.home, {
            ...answer.log,
            ms,
            outcome: answer.output ? 'answered' : 'silent',
          });
        }
      }
      if (answer.ingest) {
        waiting();
        await startDetachedIngest();
      }
    } finally {
      index?.close();
      store?.close();
    }
  } catch (error) {
    finish('');
    if (debug) tell(`remem prime: ${(error as Error).stack}\n`);
  } finally {
    clearTimeout(timer);
  }
  return 0;
}

/** Set while stdin is read on the thread pool: a read that never returns would hold `process.exit` with it. */
let readingOnThreadPool = false;
let expired = false;
/** Set when the answer went out through a stream, which may still be writing it. */
let streamed = false;

/**
 * Whether the process may end at once, now that `runPrime` is done: everything it wrote went out synchronously.
 * Ending it so skips tearing the heap down piece by piece, and waiting for compilations V8 began in the
 * background, which a hook process never uses.
 */
export function mayExitAtOnce(): boolean {
  return !streamed;
}

function failOpen(finish: (text: string) => void): void {
  finish('');
  if (!readingOnThreadPool) process.exit(0);
  // The read ends the process as soon as it returns; an agent that never closes stdin gets the process ended
  // without waiting for it (exiting would wait).
  expired = true;
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 250).unref();
}

/** A word for the person on stderr, which a pipe takes as a stream. */
function tell(text: string): void {
  streamed = true;
  process.stderr.write(text);
}

/** The whole answer, written straight to the descriptor; a pipe that would block takes the rest as a stream. */
function writeOut(text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    streamed = true;
    process.stdout.write(bytes.subarray(done));
  }
}

/**
 * All of stdin, without loading Node's streams where that can be avoided. A file is read at once and a pipe
 * through a non-blocking descriptor of its own; a socket (what Node-based agents give a hook) on the thread
 * pool; a terminal, or a pipe whose writer is not done, as a stream.
 */
function readStdin(waiting: () => void): Promise<string> {
  const chunks: Buffer[] = [];
  const stat = fstatSync(0);
  if ((stat.isFile() || stat.isFIFO()) && readWithoutWaiting(chunks, stat.isFIFO())) {
    return Promise.resolve(Buffer.concat(chunks).toString('utf8'));
  }
  waiting();
  return stat.isSocket() && chunks.length === 0 ? readOnThreadPool() : readStream(chunks);
}

/** True when all of stdin was read; false when the rest must be waited for. */
function readWithoutWaiting(chunks: Buffer[], pipe: boolean): boolean {
  let fd = 0;
  try {
    // Linux: a pipe opened again through /proc is a description of its own, so it can be made non-blocking.
    if (pipe) fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
    for (;;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const bytes = readSync(fd, buffer, 0, buffer.length, null);
      if (bytes === 0) return true;
      chunks.push(buffer.subarray(0, bytes));
    }
  } catch {
    return false; // EAGAIN: the writer is not done; without /proc: the stream reads it all
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

function readOnThreadPool(): Promise<string> {
  const chunks: Buffer[] = [];
  readingOnThreadPool = true;
  return new Promise((resolve, reject) => {
    const next = () => {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      read(0, buffer, 0, buffer.length, null, (error, bytes) => {
        if (expired) process.exit(0);
        if (error || bytes === 0) readingOnThreadPool = false;
        if (error) reject(error);
        else if (bytes === 0) resolve(Buffer.concat(chunks).toString('utf8'));
        else {
          chunks.push(buffer.subarray(0, bytes));
          next();
        }
      });
    };
    next();
  });
}

async function readStream(chunks: Buffer[]): Promise<string> {
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * SessionEnd: the session's transcript is archived and what it taught becomes lessons for the next session
 * (`ingest --learn`), in a process of its own, without holding the agent.
 */
async function startDetachedIngest(): Promise<void> {
  const binary = process.argv[1];
  if (!binary) return;
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [binary, 'ingest', '--learn'], { detached: true, stdio: 'ignore' });
  child.unref();
}
