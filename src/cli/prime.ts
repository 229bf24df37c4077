import { spawn } from 'node:child_process';
import type { CommandSpec } from './command.ts';

/**
 * `remem prime`: one command for every hook moment. It reads the hook's JSON on stdin and prints only the
 * hook's answer on stdout. It never blocks the agent: past its deadline, on any error, with a locked or
 * missing store, it prints nothing and exits 0.
 */
export async function runPrime(): Promise<number> {
  const started = performance.now();
  let settled = false;
  const finish = (text: string) => {
    if (settled) return;
    settled = true;
    if (text) process.stdout.write(text);
  };
  let debug = false;
  // The deadline stands even if the work below never returns; it is replaced by the configured one.
  let timer = setTimeout(() => failOpen(finish), 1500);
  try {
    const { resolveConfig, createClock } = await import('../core/index.ts');
    const config = resolveConfig(process.env);
    debug = config.debug;
    clearTimeout(timer);
    timer = setTimeout(
      () => failOpen(finish),
      Math.max(0, config.params.hook.deadlineMs - (performance.now() - started)),
    );
    const [prime, { openStore }] = await Promise.all([
      import('../prime/index.ts'),
      import('../store/index.ts'),
    ]);
    const raw = await readStdin();
    const payload = prime.parsePayload(raw);
    if ('refused' in payload) {
      process.stderr.write(`remem prime: ${payload.refused}\n`);
      return 0;
    }
    const now = createClock(config.now).iso();
    let store: ReturnType<typeof openStore> | null | undefined;
    const db = () => {
      if (store === undefined) {
        try {
          store = openStore(config.home, { readonly: true, busyTimeoutMs: 50 });
        } catch {
          store = null; // no memory yet: nothing to say
        }
      }
      return store?.db ?? null;
    };
    try {
      const answer = await prime.answerHook(payload, { config, now, db });
      const ms = Math.round(performance.now() - started);
      // Work that held the thread past the deadline kept its timer from firing: the answer is too late to give.
      if (ms <= config.params.hook.deadlineMs) {
        finish(answer.output ? JSON.stringify(answer.output) : '');
        if (answer.log) {
          prime.appendSessionLog(config.home, {
            ...answer.log,
            ms,
            outcome: answer.output ? 'answered' : 'silent',
          });
        }
      }
      if (answer.ingest) startDetachedIngest();
    } finally {
      store?.close();
    }
  } catch (error) {
    finish('');
    if (debug) process.stderr.write(`remem prime: ${(error as Error).stack}\n`);
  } finally {
    clearTimeout(timer);
  }
  return 0;
}

function failOpen(finish: (text: string) => void): void {
  finish('');
  process.exit(0);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** SessionEnd: the session's transcript is archived the day it is written, without holding the agent. */
function startDetachedIngest(): void {
  const binary = process.argv[1];
  if (!binary) return;
  const child = spawn(process.execPath, [binary, 'ingest'], { detached: true, stdio: 'ignore' });
  child.unref();
}

export const primeCommand: CommandSpec = {
  name: 'prime',
  summary: "a hook: reads the agent's hook JSON on stdin, prints the hook's answer",
  async run() {
    await runPrime();
    return undefined;
  },
};
