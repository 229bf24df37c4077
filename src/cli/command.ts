import type { Clock, Config } from '../core/index.ts';

/** What every command gets: the resolved config, the clock, and where to write. */
export interface Context {
  config: Config;
  clock: Clock;
  json: boolean;
  /** True when standard error is a terminal: progress bars go there, never to a pipe. */
  interactive: boolean;
  stdinIsTTY: boolean;
  readStdin(): Promise<Buffer>;
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface OptionSpec {
  /** Commander flag syntax, e.g. '-k, --k <n>' or '--claude <dir>'. */
  flags: string;
  description: string;
  /** 'int' parses a whole number; 'list' collects a repeated option. */
  parse?: 'int' | 'list';
  /** With 'int': the smallest and largest value taken, both included. */
  range?: readonly [number, number];
  default?: string | number | boolean;
}

/** A command's answer: the JSON document for `--json`, and the human text otherwise. */
export interface Output {
  json: unknown;
  text: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  /** Positional arguments in commander syntax, e.g. ['<query>']. */
  args?: string[];
  options?: OptionSpec[];
  /**
   * The command only reads the memory: where there is none yet it says so, and creates nothing (a mistyped
   * `--home` must not leave a new, empty memory behind).
   */
  readsHome?: boolean;
  /** A command that writes its own protocol to stdout (a hook, a server) returns nothing. */
  run(context: Context, args: string[], options: Record<string, unknown>): Promise<Output | undefined>;
}
