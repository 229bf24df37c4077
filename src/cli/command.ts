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
  /** 1 when part of the work failed and the text says which; 0 by default. */
  code?: 0 | 1;
}

/** `--all-projects` → `allProjects`: how commander names an option's value. */
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
/** The long name of a flag: `-k, --k <n>` → `k`; `--no-color` → `color` (commander's negation). */
type LongName<F extends string> = F extends `${string}--${infer Rest}`
  ? Rest extends `${infer Name} ${string}`
    ? Name
    : Rest
  : never;
type OptionKey<F extends string> = LongName<F> extends `no-${infer Name}` ? Camel<Name> : Camel<LongName<F>>;
/** What commander hands over for an option: a number when parsed as one, a list, a string when it takes a value. */
type OptionValue<O extends OptionSpec> = O extends { parse: 'int' }
  ? number
  : O extends { parse: 'list' }
    ? string[]
    : O['flags'] extends `${string}<${string}` | `${string}[${string}`
      ? string
      : boolean;

/** A command's options as its `run` receives them, derived from the flags it declares. */
export type OptionsOf<Opts extends readonly OptionSpec[]> = readonly OptionSpec[] extends Opts
  ? Record<string, unknown>
  : // An option with a default always has a value; the others may be absent.
    {
      [O in Opts[number] as O extends { default: unknown } ? OptionKey<O['flags']> : never]: OptionValue<O>;
    } & {
      [O in Opts[number] as O extends { default: unknown } ? never : OptionKey<O['flags']>]?: OptionValue<O>;
    };

export interface CommandSpec<Opts extends readonly OptionSpec[] = readonly OptionSpec[]> {
  name: string;
  summary: string;
  /** Positional arguments in commander syntax, e.g. ['<query>']. */
  args?: string[];
  options?: Opts;
  /** More to say in `--help`, after the options: what the words of the output mean. */
  help?: string;
  /**
   * The command only reads the memory: where there is none yet it says so, and creates nothing (a mistyped
   * `--home` must not leave a new, empty memory behind).
   */
  readsHome?: boolean;
  /** A command that writes its own protocol to stdout (a hook, a server) returns nothing. */
  run(context: Context, args: string[], options: OptionsOf<Opts>): Promise<Output | undefined>;
}

/**
 * A command whose `run` reads its options typed from its own flags: a misspelt option, or a value read as the
 * wrong type, fails to compile. The command line holds every command in one list, by the erased type.
 */
export function defineCommand<const Opts extends readonly OptionSpec[] = readonly []>(
  spec: CommandSpec<Opts>,
): CommandSpec {
  return spec as unknown as CommandSpec;
}
