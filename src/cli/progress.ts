import type { Context } from './command.ts';

export interface Progress {
  update(progress: { done: number; total: number; file: string }): void;
  stop(): void;
}

/** A progress bar on a terminal for long work; nothing when output is piped or JSON. */
export async function progressFor(context: Context, label: string): Promise<Progress> {
  if (!context.interactive || context.json) return { update: () => {}, stop: () => {} };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} files`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update({ done, total }) {
      if (!started && total >= 20) {
        bar.start(total, done);
        started = true;
      } else if (started) bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
