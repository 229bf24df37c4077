import { existsSync, readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { createClock, RememError, resolveConfig, UsageError } from '../core/index.ts';
import type { CommandSpec, Context, OptionSpec } from './command.ts';
import { type CommandEntry, commands } from './commands.ts';

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseWhole(value: string, option: OptionSpec): number {
  const number = Number(value);
  const name = option.flags.match(/--[\w-]+/)?.[0] ?? option.flags;
  if (!Number.isInteger(number) || number < 0)
    throw new UsageError(`${name} expects a whole number, got ${value}`);
  const [low, high] = option.range ?? [0, Number.MAX_SAFE_INTEGER];
  if (number < low || number > high)
    throw new UsageError(`${name} must be from ${low} to ${high}, got ${value}`);
  return number;
}

/** The version in package.json, two folders up from this file in src/ and in dist/ alike. */
function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

async function readAll(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function contextFor(options: { home?: string; json?: boolean }): Context {
  const config = resolveConfig(process.env, options.home ? { home: options.home } : {});
  return {
    config,
    clock: createClock(config.now),
    json: options.json === true,
    interactive: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    readStdin: readAll,
    stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

function register(program: Command, spec: CommandSpec, state: { code: number }): void {
  const command = program.command(spec.name).description(spec.summary);
  if (spec.help) command.addHelpText('after', `\n${spec.help}`);
  for (const arg of spec.args ?? []) command.argument(arg);
  for (const option of spec.options ?? []) {
    const built = new Option(option.flags, option.description);
    if (option.parse === 'list') built.argParser(collect);
    if (option.parse === 'int') built.argParser((value: string) => parseWhole(value, option));
    if (option.default !== undefined) built.default(option.default);
    command.addOption(built);
  }
  command.action(async (...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    const args = received
      .slice(0, -2)
      .flatMap((value) => (Array.isArray(value) ? value : [value])) as string[];
    const options = self.optsWithGlobals();
    const context = contextFor(options);
    if (spec.readsHome && !existsSync(context.config.home)) {
      throw new RememError(
        'no_memory',
        `no memory at ${context.config.home} yet: nothing has been read or learned there (remem ingest or remem run makes it)`,
      );
    }
    const output = await spec.run(context, args, options);
    if (output) context.stdout(context.json ? JSON.stringify(output.json, null, 2) : output.text);
    state.code = output?.code ?? 0;
  });
}

/**
 * A disk that is full or refuses writes, named in one line: the store's transactions keep it whole, so a
 * rerun after space is freed finishes the work.
 */
function diskProblem(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const detail = `${code}: ${String((error as Error).message).replace(/\s+/g, ' ')}`;
  const after = 'what was written before is kept; free some space and run it again';
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL')
    return `the disk is full (${detail}); ${after}`;
  if (code === 'EFBIG') return `a file reached the largest size this process may write (${detail}); ${after}`;
  if (code.startsWith('SQLITE_IOERR'))
    return `the disk refused a write to the store, is it full? (${detail}); ${after}`;
  if (
    code === 'SQLITE_READONLY' ||
    code.startsWith('SQLITE_READONLY_') ||
    code === 'EACCES' ||
    code === 'EPERM' ||
    code === 'EROFS'
  )
    return `the memory cannot be written here: this user may not write to it or the disk is read-only (${detail}); nothing was changed`;
  if (code === 'SQLITE_CANTOPEN')
    return `the memory's store cannot be opened: check that the folder exists and this user may read and write it (${detail})`;
  return null;
}

/**
 * The commands whose files are loaded for `argv`: the one it runs, when it names one after nothing but `--home` and
 * `--json`; every one otherwise (help lists them all, and a mistyped name is answered with the nearest).
 */
function commandsFor(argv: readonly string[]): readonly CommandEntry[] {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--home') i++;
    else if (arg !== '--json' && !arg.startsWith('--home=')) {
      const named = commands.find((entry) => entry.name === arg);
      return named ? [named] : commands;
    }
  }
  return commands;
}

/** The `remem` command line. Returns the exit code: 0 done, 1 a failure explained on stderr, 2 bad usage. */
export async function main(argv: string[]): Promise<number> {
  const state = { code: 0 };
  const program = new Command('remem')
    .description('A memory for AI agents: it keeps what surprised them, while it predicts.')
    .option('--home <dir>', 'the memory folder (default: REMEM_HOME or ~/.remem)')
    .option('--json', 'print one JSON document')
    .version(packageVersion(), '--version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
    })
    .showHelpAfterError(false);
  try {
    const specs = await Promise.all(commandsFor(argv).map((entry) => entry.load()));
    for (const spec of specs) register(program, spec, state);
    await program.parseAsync(argv, { from: 'user' });
    return state.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.exitCode === 0
        ? 0
        : 2;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`remem: ${error.message}\n`);
      return 2;
    }
    if (error instanceof RememError) {
      process.stderr.write(`remem: ${error.message}\n`);
      return error.exitCode;
    }
    const disk = diskProblem(error);
    if (disk !== null) {
      process.stderr.write(`remem: ${disk}\n`);
      return 1;
    }
    // A stack trace helps whoever debugs remem, not whoever uses it: REMEM_DEBUG=1 prints it.
    const detail = process.env['REMEM_DEBUG']
      ? ((error as Error)?.stack ?? String(error))
      : `${(error as Error)?.message ?? String(error)} (REMEM_DEBUG=1 prints the details)`;
    process.stderr.write(
      `remem: unexpected failure: ${detail.replace(/\s*\n\s*/g, process.env['REMEM_DEBUG'] ? '\n' : ' ')}\n`,
    );
    return 1;
  }
}
