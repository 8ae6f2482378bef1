// How help reads (docs/help.md): the usage, what the command does, its arguments (none that it
// only refuses), a group's subcommands before any option, the command's own options, then only
// the global options that apply to it (command-kit/applies.ts), its examples; a group and the root say
// how to get a subcommand's help, and the root lists the environment and exit codes. Commander
// lays out each part; this decides which parts, and in what order.
import { Help, type Argument, type Command, type HelpConfiguration, type Option } from 'commander';
import { runs, type AnyCommand } from './command-kit/command.js';
import { globalApplies } from './command-kit/applies.js';
import { GLOBAL_OPTIONS } from './command-kit/globals.js';

export interface HelpSource {
  /** The declaration a command was built from; undefined for the root. */
  specOf(command: Command): AnyCommand | undefined;
  /** Arguments declared only to be refused (a key typed on the command line). */
  refused: WeakSet<Argument>;
  /** What follows the root's options: examples, the environment, exit codes. */
  rootEpilogue: string;
}

export function helpConfiguration(source: HelpSource, width: number): HelpConfiguration {
  const visibleArguments = (helper: Help, cmd: Command) => Help.prototype.visibleArguments.call(helper, cmd).filter((arg) => !source.refused.has(arg));
  return {
    helpWidth: width,
    sortSubcommands: false,
    showGlobalOptions: true,

    visibleArguments(this: Help, cmd) {
      return visibleArguments(this, cmd);
    },

    /** A command's own usage words, without an argument it only refuses: `login [options]`. */
    commandUsage(this: Help, cmd) {
      const names: string[] = [];
      for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
      const words = ['[options]', ...(cmd.commands.length > 0 ? ['<command>'] : []), ...visibleArguments(this, cmd).map(argumentWord)];
      return [...names, ...words].join(' ');
    },

    /** A subcommand in its group's list: its name (and alias) and the arguments it takes. */
    subcommandTerm(this: Help, cmd) {
      const name = [cmd.name(), ...cmd.aliases().slice(0, 1)].join('|');
      return [name, ...visibleArguments(this, cmd).map(argumentWord)].join(' ');
    },

    /** The global options that apply to a command that runs; a group itself takes none. */
    visibleGlobalOptions(this: Help, cmd) {
      const spec = source.specOf(cmd);
      if (spec === undefined || !runs(spec)) return [];
      return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((option: Option) => {
        const name = option.attributeName();
        return Object.hasOwn(GLOBAL_OPTIONS, name) && globalApplies(name, spec);
      });
    },

    formatHelp(this: Help, cmd, helper) {
      const termWidth = helper.padWidth(cmd, helper);
      const item = (term: string, description: string) => helper.formatItem(term, termWidth, description, helper);
      const list = (heading: string, items: string[]) => this.formatItemList(heading, items, helper);
      const option = (o: Option) => item(helper.styleOptionTerm(helper.optionTerm(o)), helper.styleOptionDescription(helper.optionDescription(o)));
      const description = helper.commandDescription(cmd);
      const spec = source.specOf(cmd);
      return [
        `${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(cmd))}`,
        '',
        ...(description ? [helper.boxWrap(helper.styleCommandDescription(description), helper.helpWidth ?? 80), ''] : []),
        ...list(
          'Arguments:',
          helper.visibleArguments(cmd).map((a) => item(helper.styleArgumentTerm(helper.argumentTerm(a)), helper.styleArgumentDescription(helper.argumentDescription(a)))),
        ),
        ...list(
          'Commands:',
          helper.visibleCommands(cmd).map((c) => item(helper.styleSubcommandTerm(helper.subcommandTerm(c)), helper.styleSubcommandDescription(helper.subcommandDescription(c)))),
        ),
        ...list('Options:', helper.visibleOptions(cmd).map(option)),
        ...list('Global Options:', helper.visibleGlobalOptions(cmd).map(option)),
        ...(spec?.examples?.length ? ['Examples:', ...spec.examples.map((example) => `  ${example}`), ''] : []),
        ...(cmd.commands.length > 0 ? [subcommandPointer(cmd), ''] : []),
        ...(cmd.parent ? [] : [source.rootEpilogue]),
      ].join('\n');
    },
  };
}

/** How an argument reads in a usage line: `<key>`, `[resource...]`. */
function argumentWord(arg: Argument): string {
  const name = `${arg.name()}${arg.variadic ? '...' : ''}`;
  return arg.required ? `<${name}>` : `[${name}]`;
}

/** Where a group's (or the root's) reader finds a subcommand's own options. */
function subcommandPointer(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  const path = ['cdata', ...names].join(' ');
  return `Run '${path} COMMAND --help' (or 'cdata help ${[...names, 'COMMAND'].join(' ')}') for a command's options.`;
}
