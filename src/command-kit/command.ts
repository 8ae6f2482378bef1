// A command is data (as vercel's command.ts files are) plus a handler loaded only when it runs:
// help, completions, the man page and the README's command table read the data without loading
// any handler. The handler's options and arguments are typed from the same declaration.
import type { SandboxTarget, Settings } from '../config/resolve.js';
import type { Transport, TransportOptions } from '../client/transport.js';
import type { View } from '../core/endpoints.js';
import type { Io } from '../io/index.js';
import type { Output, ViewOf } from '../output/print.js';
import type { ArgSpec, ArgValues, OptionMap, Values } from '../core/option.js';
import type { GlobalValues } from './globals.js';

export interface CommandContext<O extends OptionMap = {}, A extends readonly ArgSpec[] = readonly []> {
  io: Io;
  /** This command's options, parsed (a bad value was refused before the handler ran). */
  options: Values<O>;
  /** Its arguments, in declaration order (a variadic one as a list). */
  args: ArgValues<A>;
  /** The global options, each parsed when first read (settings() reads most of them). */
  global: GlobalValues;
  /** Settings (flag > env > profile > default), resolved on first use. */
  settings(): Settings;
  /**
   * The key in use (settings().key), undefined when none is configured. A profile's key command
   * runs here, on first use and at most once per run: only commands that send a request ask.
   */
  apiKey(): Promise<string | undefined>;
  /**
   * A new transport for this command's requests (undici's, unless main was given another): the
   * seam where handler tests answer requests in-process.
   */
  transport(options: TransportOptions): Promise<Transport>;
  /**
   * For a command that sends no request yet reads much (`cdata changes`): call before that work,
   * as transport() does before the first request (bin/start-up.cjs: V8's flags).
   */
  beforeWork(): void;
  /** The in-process sandbox when --sandbox was given. */
  sandbox: SandboxTarget | undefined;
  /** A note on stderr, unless --quiet. API text in it is sanitised. */
  note(message: string): void;
  /** A warning on stderr, unless --quiet. */
  warn(message: string): void;
  /**
   * How this run reports errors (report.ts): also as JSON lines (-o json/ndjson, or the
   * profile's output), and without these secrets. For a command that reports some itself.
   */
  errorStyle(): { json: boolean; secrets: readonly string[] };
  /**
   * Where data described by `view` goes, and in what format (-o/--json, --out's extension, the
   * profile's, else table or tsv): the one way data is printed. --fields is checked against the
   * view here, so call it before any request; against a view made from the data (a query's
   * result), when it prints.
   */
  output(view: View | ViewOf): Output;
  /** Every command, for the commands that describe the others (completion). */
  registry: readonly AnyCommand[];
  /** Prints the help of the command at `path` (the root's for none), as `--help` does; its exit code. */
  showHelp(path: readonly string[]): Promise<number>;
}

/** Returns the exit code (0 when omitted); errors are thrown as CliError. */
export type Handler<O extends OptionMap = {}, A extends readonly ArgSpec[] = readonly []> = (
  context: CommandContext<O, A>,
) => Promise<number | void>;

export interface CommandSpec<O extends OptionMap = {}, A extends readonly ArgSpec[] = readonly []> {
  name: string;
  aliases?: readonly string[];
  summary: string;
  /** Extra help text after the summary. */
  description?: string;
  args?: A;
  options?: O;
  /** Shown under "Examples:" in help, in the man page, and the first in the README. */
  examples?: readonly string[];
  /** A group's commands; a command with none runs, with its handler (src/commands/handlers.ts). */
  subcommands?: readonly AnyCommand[];
  /**
   * What its data looks like, when it prints data through context.output: completions offer its
   * field names after --fields, and help shows it the output options.
   */
  view?: View;
  /** Talks to the API, so --sandbox applies (unless refusesSandbox). */
  usesApi?: boolean;
  /**
   * --sandbox is refused (exit 2, before any sandbox starts), saying why and what to do instead;
   * help does not list it. For a command whose effect would not outlive its own sandbox.
   */
  refusesSandbox?: { why: string; hint: string };
  /** Reads or changes the settings of the profile in use, so -p applies (as it does with usesApi). */
  usesProfile?: boolean;
  /**
   * true: its output is data, which --out FILE can take. Otherwise --out is refused (exit 2)
   * rather than silently ignored, saying why: this text, or that the output is not data.
   */
  writesOutput?: true | string;
  /** The -o values it accepts, when not every format (completions and help offer these; others are exit 2). */
  formats?: readonly string[];
  /** With `formats`: what it prints without -o, for help (`csv`, `lines of text`). */
  formatDefault?: string;
  /** Left out of help and completions. */
  hidden?: boolean;
}

/**
 * Any command, whatever its options: the registry is a list of commands whose option types all
 * differ, and each handler is only ever called with the values of its own declaration.
 */
// biome-ignore lint/suspicious/noExplicitAny: a list of commands whose option types all differ (see above)
export type AnyCommand = CommandSpec<any, any>;

/** The handler of any command (src/commands/handlers.ts holds them, each typed by its own declaration). */
// biome-ignore lint/suspicious/noExplicitAny: as AnyCommand, for the handlers of all of them
export type AnyHandler = Handler<any, any>;

/** Declares a command: the identity, there to infer its option and argument types for its handler. */
export function defineCommand<const O extends OptionMap = {}, const A extends readonly ArgSpec[] = readonly []>(
  spec: CommandSpec<O, A>,
): CommandSpec<O, A> {
  return spec;
}

/** Whether `word` names the command: its name or an alias. */
export function isNamed(spec: AnyCommand, word: string): boolean {
  return spec.name === word || spec.aliases?.includes(word) === true;
}

/** The command (or subcommand) at a path such as ['auth', 'login'], names or aliases: the one look-up. */
export function findCommand(registry: readonly AnyCommand[], path: readonly string[]): AnyCommand | undefined {
  let specs = registry;
  let found: AnyCommand | undefined;
  for (const word of path) {
    found = specs.find((spec) => isNamed(spec, word));
    if (!found) return undefined;
    specs = found.subcommands ?? [];
  }
  return found;
}

/** Every command and subcommand, parents first, in the registry's order, with its path of names. */
export function walkCommands(
  registry: readonly AnyCommand[],
  parent: readonly string[] = [],
): { spec: AnyCommand; path: string[] }[] {
  return registry.flatMap((spec) => {
    const path = [...parent, spec.name];
    return [{ spec, path }, ...walkCommands(spec.subcommands ?? [], path)];
  });
}

/** A command that runs, rather than one that groups others. */
export const runs = (spec: AnyCommand): boolean => (spec.subcommands ?? []).length === 0;
