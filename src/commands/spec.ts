// Command metadata is data (as vercel's command.ts files are); the handler is a function loaded
// only when its command runs. Help, completions and the README's command list read the data
// without running or importing any handler.
import type { Endpoint } from '../endpoints.js';
import type { GlobalOptions, SandboxTarget, Settings } from '../config/resolve.js';
import type { Io } from '../io.js';

/** Where completions find the values of an option or argument. */
export type Completion =
  | { kind: 'values'; values: readonly string[] }
  | { kind: 'fields' }
  | { kind: 'profiles' }
  | { kind: 'resources' }
  | { kind: 'settings' }
  /** The value of the setting named just before it (config set output <TAB>). */
  | { kind: 'settingValue' }
  | { kind: 'files' }
  | { kind: 'dirs' };

export interface OptionSpec {
  /** commander flags, e.g. `-l, --limit <n>`. */
  flags: string;
  description: string;
  complete?: Completion;
  /** Shown in help; commander does not apply it (resolution does, so precedence stays in one place). */
  defaultText?: string;
  /** The command cannot run without it (the handler says so); shown unbracketed in synopses. */
  required?: boolean;
  /** Parsed but left out of help and completions (auth login's refused --key, so it cannot echo). */
  hidden?: boolean;
}

export interface ArgSpec {
  name: string;
  description: string;
  required: boolean;
  /** Declared only to be refused with advice (a key typed on the command line): not shown. */
  hidden?: boolean;
  variadic?: boolean;
  complete?: Completion;
}

export interface CommandContext {
  io: Io;
  spec: CommandSpec;
  /** Positional arguments, in ArgSpec order (a variadic one as string[]). */
  args: (string | string[] | undefined)[];
  /** This command's options and the global ones, as commander parsed them. */
  options: GlobalOptions & Record<string, unknown>;
  /** Settings (flag > env > profile > default), resolved on first use. */
  settings(): Settings;
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
}

/** Returns the exit code (0 when omitted); errors are thrown as CliError. */
export type Handler = (context: CommandContext) => Promise<number | void>;

export interface CommandSpec {
  name: string;
  aliases?: readonly string[];
  summary: string;
  /** Extra help text after the summary. */
  description?: string;
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  /** Shown under "Examples:" in help and in the README. */
  examples?: readonly string[];
  subcommands?: readonly CommandSpec[];
  /** Loads the handler; absent for a command that only groups subcommands. */
  load?: () => Promise<Handler>;
  /** Set on the endpoint commands: completions offer its field names. */
  endpoint?: Endpoint;
  /** Talks to the API, so --sandbox applies. */
  usesApi?: boolean;
  /**
   * true: its output is data, which --out FILE can take. Otherwise --out is refused (exit 2)
   * rather than silently ignored, saying why: this text, or that the output is not data.
   */
  writesOutput?: true | string;
  /** The -o values it accepts, when not every format (completions offer these). */
  formats?: readonly string[];
  /** Left out of help and completions. */
  hidden?: boolean;
}
