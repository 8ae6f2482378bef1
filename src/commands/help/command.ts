// `cdata help [COMMAND...]` and `cdata version`: the same as `--help` and `--version`, as the
// commands gh and kubectl users type.
import { defineCommand, type AnyCommand } from '../../command-kit/command.js';

export const HELP_ARGS = [
  { name: 'command', description: 'the command, e.g. tenders or auth login', variadic: true },
] as const;

/** `help`, completing the names of `commands` (every other top-level command). */
export function helpCommand(commands: readonly AnyCommand[]): AnyCommand {
  const names = commands.filter((spec) => !spec.hidden).flatMap((spec) => [spec.name, ...(spec.aliases ?? [])]);
  return defineCommand({
    name: 'help',
    summary: 'Show the help of cdata or of a command, as --help does',
    args: [{ ...HELP_ARGS[0], complete: { kind: 'values', values: [...names, 'help', 'version'] } }] as const,
    examples: ['cdata help tenders', 'cdata help auth login'],
  });
}

export const VERSION_COMMAND = defineCommand({
  name: 'version',
  summary: "Print cdata's version, as --version does",
  examples: ['cdata version'],
});
