// `cdata help [COMMAND...]` and `cdata version`: the same as `--help` and `--version`, as the
// commands gh and kubectl users type.
import { defineCommand, type AnyCommand } from '../../command-kit/command.js';

export const HELP_ARGS = [
  { name: 'command', description: 'the command, e.g. tenders or auth login', variadic: true },
] as const;

/** `help`, completing a command's name, then a group's subcommands (`kind: 'commands'`). */
export const HELP_COMMAND: AnyCommand = defineCommand({
  name: 'help',
  summary: 'Show the help of cdata or of a command, as --help does',
  args: [{ ...HELP_ARGS[0], complete: { kind: 'commands' } }] as const,
  examples: ['cdata help tenders', 'cdata help auth login'],
});

export const VERSION_COMMAND = defineCommand({
  name: 'version',
  summary: "Print cdata's version, as --version does",
  examples: ['cdata version'],
});
