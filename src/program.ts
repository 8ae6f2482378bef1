// Builds the commander program from the command registry and runs one command. Commander never
// exits the process or prints errors itself: its errors become UsageErrors for src/cli.ts.
import { Argument, Command, CommanderError, Option } from 'commander';
import { invoked, refuseJsonFields } from './argv.js';
import { commanderMistake } from './usage-mistakes.js';
import { COMMANDS } from './commands/index.js';
import { handlerOf } from './commands/handlers.js';
import { ENV_VARS } from './config/env.js';
import { isJsonFormat } from './config/schema.js';
import { keyToSend, resolveSettings, storedJsonOutput, type SandboxTarget, type Settings } from './config/resolve.js';
import { lazyValues, parseArgs, parseValues, refuseConflicts, type OptionSpec, type RawOption } from './core/option.js';
import { parseName } from './core/parse.js';
import { EXIT, EXIT_CODES, UsageError } from './core/errors.js';
import { canRedraw, type Io } from './io/index.js';
import { outputFormat } from './output/format.js';
import { output } from './output/print.js';
import { sanitize } from './core/sanitize.js';
import type { RunState } from './run-state.js';
import { findCommand, type AnyCommand, type CommandContext } from './command-kit/command.js';
import { GLOBAL_OPTIONS, type GlobalValues } from './command-kit/globals.js';
import { formatIgnores, globalApplies } from './command-kit/applies.js';
import { VERSION } from './core/version.js';
import { helpConfiguration, helpWidth, overview, type HelpSource } from './help.js';

export async function runProgram(argv: readonly string[], io: Io, run: RunState): Promise<number> {
  let exitCode: number = EXIT.ok;
  const mistake = refuseJsonFields(argv);
  if (mistake) {
    run.jsonErrors = true; // --json was asked for
    throw mistake;
  }
  // Bare `cdata`: a short overview of what it is and where to start, not the whole help.
  if (argv.length === 0) {
    io.stdout.write(overview(helpWidth(io)));
    return EXIT.ok;
  }
  const written: string[] = [];
  const chosen = invoked(argv);
  const program = buildProgram(io, run, (code) => (exitCode = code), chosen, written);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // --help, --version: at a terminal, through the pager when longer than the screen, as data.
    if (error.exitCode === 0) {
      await showWritten(io, written.join(''), argv);
      return EXIT.ok;
    }
    if (error.code === 'commander.help') {
      // Global options and no command (`cdata -o tenders`: the option took the command's name as
      // its value): said in a line, not the whole help. A group without its subcommand: its help.
      if (chosen === undefined) throw noCommand(argv);
      io.stderr.write(written.splice(0).join(''));
      return EXIT.usage;
    }
    throw commanderMistake(error, program, argv);
  }
  return exitCode;
}

/** Options given, but no command: where a command's name went, when one of the words is one. */
function noCommand(argv: readonly string[]): UsageError {
  const at = argv.findIndex((word) => findCommand(COMMANDS, [word]) !== undefined);
  const why = at > 0 ? `: '${argv[at]}' was taken as the value of ${argv[at - 1]}` : '';
  return new UsageError(`no command given${why}`, {
    hint:
      at > 0
        ? `Give ${argv[at - 1]} a value of its own (an empty variable leaves it none), then the command.`
        : "Run 'cdata --help' for the commands.",
  });
}

function buildProgram(
  io: Io,
  run: RunState,
  setExitCode: (code: number) => void,
  chosen: AnyCommand | undefined,
  written: string[],
): Command {
  const specs = new WeakMap<Command, AnyCommand>();
  const help: HelpSource & { specs: WeakMap<Command, AnyCommand> } = {
    specs,
    specOf: (command) => specs.get(command),
    refused: new WeakSet(),
    rootEpilogue: rootHelp,
  };
  const program = new Command('cdata')
    .description('Read your company data from the API: tables at a terminal, JSON for scripts, CSV exports for cron.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError()
    .configureHelp(helpConfiguration(help, helpWidth(io)))
    // What commander writes is held until the run's outcome says where it goes: --help's text to
    // stdout (through the pager), a group's help for a missing subcommand to stderr (runProgram).
    .configureOutput({
      writeOut: (text) => void written.push(text),
      writeErr: (text) => void written.push(text),
      outputError: () => undefined, // reported by cli.ts like every other error
    })
    .exitOverride();
  for (const option of Object.values(GLOBAL_OPTIONS)) program.addOption(toOption(option));
  // Errors are also written as a JSON line when the output is JSON; known as soon as the flag parses.
  // Either flag asking for JSON is enough, in whichever order they come (`--json -o csv` is
  // refused as a contradiction, and that error is a JSON line too).
  let jsonFlag = false;
  program.on('option:output', (value: string) => (run.jsonErrors = jsonFlag || isJsonFormat(value)));
  program.on('option:json', () => (run.jsonErrors = jsonFlag = true));
  program.on('option:debug', () => (run.debug = true));
  for (const spec of chosen ? [chosen] : COMMANDS) addCommand(program, spec, [], io, run, setExitCode, help);
  return program;
}

function addCommand(
  parent: Command,
  spec: AnyCommand,
  parentPath: readonly string[],
  io: Io,
  run: RunState,
  setExitCode: (code: number) => void,
  help: HelpSource & { specs: WeakMap<Command, AnyCommand> },
): void {
  const command = parent
    .command(spec.name, { hidden: spec.hidden ?? false })
    .summary(spec.summary)
    .description(spec.description ? `${spec.summary}.\n\n${spec.description}` : `${spec.summary}.`)
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .exitOverride()
    .configureOutput(parent.configureOutput())
    .configureHelp(parent.configureHelp());
  help.specs.set(command, spec);
  for (const alias of spec.aliases ?? []) command.alias(alias);
  for (const arg of spec.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    const argument = new Argument(arg.required ? `<${name}>` : `[${name}]`, arg.description);
    if (arg.hidden) help.refused.add(argument);
    command.addArgument(argument);
  }
  for (const option of Object.values<OptionSpec<unknown>>(spec.options ?? {})) command.addOption(toOption(option));
  const path = [...parentPath, spec.name];
  for (const sub of spec.subcommands ?? []) addCommand(command, sub, path, io, run, setExitCode, help);
  const load = handlerOf(path);
  if (!load) return;
  command.action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    // What commander found, by each option's attribute name; each declaration parses its own.
    const found = self.optsWithGlobals<Record<string, RawOption>>();
    const raw = (option: OptionSpec<unknown>) => found[attributeName(option)];
    const global = lazyValues(GLOBAL_OPTIONS, raw);
    const takesJson = globalApplies('json', spec);
    try {
      if (global.out !== undefined && spec.writesOutput !== true) {
        const why = spec.writesOutput ?? 'what it prints is not data; redirect it with > if a file is wanted';
        throw new UsageError(`--out does not apply to ${namesOf(self)}: ${why}`);
      }
      if (global.sandbox && spec.refusesSandbox) {
        const { why, hint } = spec.refusesSandbox;
        throw new UsageError(`--sandbox does not apply to ${namesOf(self)}: ${why}`, { hint });
      }
      checkGlobals(self, spec, global, raw);
      const options = parseValues(spec.options ?? {}, raw);
      const args = parseArgs(spec.args ?? [], actionArgs.slice(0, spec.args?.length ?? 0));
      const [handler, target] = await Promise.all([load(), global.sandbox ? startSandbox(spec, self) : undefined]);
      try {
        setExitCode(
          (await handler(createContext(io, run, global, options, args, target?.target, takesJson))) ?? EXIT.ok,
        );
      } finally {
        await target?.close();
      }
    } catch (error) {
      // Found before the settings were read (a flag's bad value): a profile's stored `output
      // json` makes it a JSON line too, as --json does. Only that is read: no warning, no
      // --debug, nothing a command that reads no config would otherwise say.
      const flagged = raw(GLOBAL_OPTIONS.output) !== undefined || raw(GLOBAL_OPTIONS.json) !== undefined;
      if (takesJson && !flagged && storedJsonOutput(global, io)) run.jsonErrors = true;
      throw error;
    }
  });
}

/** Whether the run's output is JSON; a stored output cdata refuses says so where it is used, not here. */
function jsonOutput(settings: Settings): boolean {
  try {
    return isJsonFormat(settings.output.value);
  } catch {
    return false;
  }
}

/** The context of whichever command runs: its values were parsed from its own declaration. */
// biome-ignore lint/suspicious/noExplicitAny: as AnyCommand (command-kit/command.ts)
type AnyContext = CommandContext<any, any>;

function createContext(
  io: Io,
  run: RunState,
  global: GlobalValues,
  options: AnyContext['options'],
  args: AnyContext['args'],
  sandbox: SandboxTarget | undefined,
  /** Whether the command prints JSON: a profile's stored `output json` makes errors JSON lines only then. */
  takesJson: boolean,
): AnyContext {
  let settings: Settings | undefined;
  const resolved = (): Settings => {
    if (!settings) {
      settings = resolveSettings(global, io, sandbox);
      if (settings.key.value) run.secrets.push(settings.key.value);
      if (takesJson && jsonOutput(settings)) run.jsonErrors = true;
      run.debug ||= settings.debug;
    }
    return settings;
  };
  let apiKey: Promise<string | undefined> | undefined;
  const quiet = () => global.quiet;
  const warn = (message: string) => void (quiet() || io.stderr.write(`warning: ${sanitize(message)}\n`));
  let flagsChecked = false;
  return {
    io,
    options,
    args,
    global,
    sandbox,
    settings: resolved,
    apiKey: () => (apiKey ??= keyInUse(resolved(), io, run)),
    transport: async (transportOptions) => {
      const create = run.transport ?? (await import('./client/transport.js')).createTransport;
      run.beforeWork?.();
      return create(io.env, transportOptions);
    },
    beforeWork: () => run.beforeWork?.(),
    note: (message) => void (quiet() || io.stderr.write(`${sanitize(message)}\n`)),
    warn,
    errorStyle: () => {
      resolved(); // settles run.jsonErrors and run.secrets
      return { json: run.jsonErrors, secrets: run.secrets };
    },
    output: (view) => {
      const { output: stored, color, pager, pagerRefused } = resolved();
      const { out, fields, header, bom } = global;
      const format = outputFormat(stored, out, io.stdout);
      if (!flagsChecked) {
        for (const unused of formatIgnores(format, global)) warn(unused);
        // Where a pager could run: data to a terminal (the config file's own warning came first).
        if (pagerRefused && out === undefined && canRedraw(io, io.stdout))
          warn("the profile's pager is not run from that config file: PAGER, or less, is used instead");
      }
      flagsChecked = true;
      return output(io, { format, fields, header, bom, color, out, pager, quiet: global.quiet }, view);
    },
    registry: COMMANDS,
    showHelp: (path) => showHelp(path, io, run, global.pager === false ? ['--no-pager'] : []),
  };
}

/** The resolved key, or the one the profile's key command prints, which becomes a secret of the run. */
async function keyInUse(settings: Settings, io: Io, run: RunState): Promise<string | undefined> {
  const value = await keyToSend(settings, io);
  if (value !== undefined) run.secrets.push(value);
  return value;
}

/**
 * `cdata help auth login` is `cdata auth login --help`, once every word is known to name a
 * command: commander would answer `cdata nosuch --help` with the root's help. An unknown name
 * among a group's commands is parsed as itself, so commander reports it as any unknown command
 * (with its suggestion); a word past a command that has none is refused here.
 */
async function showHelp(path: readonly string[], io: Io, run: RunState, flags: readonly string[]): Promise<number> {
  const names = ['cdata'];
  for (const [i, word] of path.entries()) {
    const spec = findCommand(COMMANDS, path.slice(0, i + 1));
    const specs = i === 0 ? COMMANDS : (findCommand(COMMANDS, path.slice(0, i))?.subcommands ?? []);
    if (spec) {
      names.push(spec.name);
    } else if (specs.length > 0 && !word.startsWith('-')) {
      return runProgram(path.slice(0, i + 1), io, run);
    } else {
      throw new UsageError(`unknown command '${word}' for '${names.join(' ')}'`, {
        hint: `Run '${names.join(' ')} --help' for usage.`,
      });
    }
  }
  return runProgram([...path, '--help', ...flags], io, run);
}

/**
 * Help or the version, to stdout: at a terminal through the pager when longer than the screen
 * (CDATA_PAGER, else PAGER, else less -FRX; --no-pager: none), where data would be (not at a
 * dumb terminal). Help reads no config file, so a profile's `pager` setting does not apply to it.
 */
async function showWritten(io: Io, text: string, argv: readonly string[]): Promise<void> {
  if (!canRedraw(io, io.stdout) || argv.includes('--no-pager')) return void io.stdout.write(text);
  await (await import('./output/pager.js')).showPaged(io, text, io.env.CDATA_PAGER ?? io.env.PAGER);
}

/** --sandbox: the whole API in-process on a free loopback port, with the all-scopes demo key. */
async function startSandbox(
  spec: AnyCommand,
  command: Command,
): Promise<{ target: SandboxTarget; close(): Promise<void> }> {
  if (!spec.usesApi)
    throw new UsageError(`--sandbox applies only to commands that call the API, not '${namesOf(command)}'`);
  const [{ startSandbox: start }, { demoKey }] = await Promise.all([
    import('./sandbox/server.js'),
    import('./sandbox/keys.js'),
  ]);
  const server = await start();
  return { target: { url: server.url, key: demoKey('all') }, close: () => server.close() };
}

const attributes = new WeakMap<OptionSpec<unknown>, string>();

/** The name commander files an option's value under (`--fail-rate`: failRate; `--no-header`: header). */
function attributeName(option: OptionSpec<unknown>): string {
  let name = attributes.get(option);
  if (name === undefined) attributes.set(option, (name = new Option(option.flags).attributeName()));
  return name;
}

function toOption(spec: OptionSpec<unknown>): Option {
  const description =
    spec.defaultText === undefined ? spec.description : `${spec.description} (default: ${spec.defaultText})`;
  return new Option(spec.flags, description).hideHelp(spec.hidden === true);
}

/**
 * Every global option given on the command line is parsed, whether or not the command uses it:
 * a bad value is exit 2, never ignored (`config path --color bogus`). A command that takes only
 * some formats refuses the others when -o names one (a profile's stored format it passes over).
 */
function checkGlobals(
  command: Command,
  spec: AnyCommand,
  global: GlobalValues,
  raw: (option: OptionSpec<unknown>) => RawOption,
): void {
  for (const [name, option] of Object.entries(GLOBAL_OPTIONS))
    if (raw(option) !== undefined) void global[name as keyof GlobalValues];
  const format = raw(GLOBAL_OPTIONS.output) === undefined ? undefined : global.output;
  if (spec.formats && format !== undefined) parseName(format, spec.formats, `--output for ${namesOf(command)}`);
  refuseConflicts(GLOBAL_OPTIONS, raw);
}

/** `auth status` for that subcommand: its names below the root. */
function namesOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function rootHelp(): string {
  const width = Math.max(...ENV_VARS.map((v) => v.name.length));
  return [
    'Examples:',
    // A shell comment, so the line can be copied whole; 76 columns, so 80 do not wrap it.
    '  cdata --sandbox tenders --tier RECOMMENDED   # demo data, no account needed',
    '  echo "$KEY" | cdata auth login --base-url https://api.example.com',
    '  cdata obligations --json | jq \'.[] | select(.status == "OPEN")\'',
    '  cdata export --dir /srv/exports',
    '',
    'Environment:',
    ...ENV_VARS.map((v) => `  ${v.name.padEnd(width)}  ${v.meaning}`),
    '',
    'Exit codes:',
    ...Object.entries(EXIT_CODES).map(([code, { meaning }]) => `  ${code.padStart(2)}  ${meaning}`),
    '',
  ].join('\n');
}
