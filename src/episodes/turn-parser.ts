/**
 * Parsing transcripts off the main thread. While this thread stores one file and derives its session's episodes, a
 * worker parses the next files: the readers and the JSON of the turns are most of ingest's work on each line.
 */
import { Worker } from 'node:worker_threads';
import type { ParsedTurns } from './parse-lines.ts';
import type { Source } from './source.ts';

export interface TurnParser {
  /**
   * The turns of `bytes` from `from`, numbered after `firstLine`; parsed in the order asked. `derive`: the session
   * the file holds whole, whose episodes are derived with the parsing.
   */
  parse(
    source: Source,
    bytes: Buffer,
    from: number,
    firstLine: number,
    derive?: string,
  ): Promise<ParsedTurns>;
  close(): Promise<void>;
}

export interface ParseJob {
  id: number;
  source: Pick<Source, 'path' | 'agent'>;
  bytes: Uint8Array;
  from: number;
  firstLine: number;
  derive?: string;
}

export type ParseReply = { id: number; parsed: ParsedTurns } | { id: number; error: string };

/**
 * Parses on a worker thread, started on the first file, or at once with `startNow`, when running from the build: the
 * worker runs `dist/parse-worker.cjs`, `parse-worker.ts` with its imports bundled into one file
 * (`scripts/bundle-parse-worker.mjs`). From the sources (tests import them) a worker has no loader for TypeScript, so
 * parsing happens on this thread, when asked; the turns are the same either way. Should the worker fail or stop, what
 * it had not returned is parsed here instead. The parsers of this thread are loaded only then: a command line that
 * opens the parser before anything else starts its worker without waiting for them.
 */
export function openTurnParser(options: { startNow?: boolean } = {}): TurnParser {
  const script = import.meta.url.endsWith('.js')
    ? new URL('../parse-worker.cjs', import.meta.url)
    : undefined;
  type Job = Omit<ParseJob, 'id' | 'bytes'> & {
    bytes: Buffer;
    resolve(parsed: ParsedTurns): void;
    reject(error: Error): void;
  };
  let worker: Worker | undefined;
  let failed = script === undefined;
  let nextId = 0;
  const waiting = new Map<number, Job>();
  const parseHere = async (job: Omit<Job, 'resolve' | 'reject'>) => {
    const { parseAndDerive, parseTurns } = await import('./parse-lines.ts');
    return job.derive === undefined
      ? parseTurns(job.source as Source, job.bytes, job.from, job.firstLine, true)
      : parseAndDerive(job.source as Source, job.bytes, job.from, job.firstLine, job.derive);
  };
  const start = (url: URL) => {
    const started = new Worker(url, { execArgv: [] });
    started.unref();
    started.on('message', (reply: ParseReply) => {
      const job = waiting.get(reply.id);
      waiting.delete(reply.id);
      if ('error' in reply) job?.reject(new Error(`not parsed: ${reply.error}`));
      else job?.resolve(reply.parsed);
    });
    const fallBack = () => {
      if (worker !== started) return;
      worker = undefined;
      failed = true;
      for (const job of waiting.values()) parseHere(job).then(job.resolve, job.reject);
      waiting.clear();
    };
    started.on('error', fallBack);
    started.on('exit', fallBack);
    return started;
  };
  if (options.startNow && script !== undefined) worker = start(script);
  return {
    parse(source, bytes, from, firstLine, derive) {
      const job = {
        source: { path: source.path, agent: source.agent },
        bytes,
        from,
        firstLine,
        ...(derive === undefined ? {} : { derive }),
      };
      if (failed || script === undefined) return parseHere(job);
      worker ??= start(script);
      const id = nextId++;
      const parsed = new Promise<ParsedTurns>((resolve, reject) =>
        waiting.set(id, { ...job, resolve, reject }),
      );
      // Awaited later, in order; a failure is reported then, not as an unhandled rejection now.
      parsed.catch(() => {});
      worker.postMessage({ id, ...job } satisfies ParseJob);
      return parsed;
    },
    async close() {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}
