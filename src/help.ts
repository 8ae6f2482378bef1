// How help reads (docs/help.md): the usage, what the command does, its arguments (none that it
// only refuses), a group's subcommands before any option, the command's own options, then only
// the global options that apply to it (command-kit/applies.ts), its examples; a group and the root say
// how to get a subcommand's help, and the root lists the environment and exit codes. Commander
// lays out each part; this decides which parts, and in what order.
import { Help, type Argument, type Command, type HelpConfiguration, type Option } from 'commander';
import { runs, type AnyCommand } from './command-kit/command.js';
import { globalApplies } from './command-kit/applies.js';
import { GLOBAL_OPTIONS, HEADED_FORMATS, headerDescription } from './command-kit/globals.js';

export interface HelpSource {
  /** The declaration a command was built from; undefined for the root. */
  specOf(command: Command): AnyCommand | undefined;
  /** Arguments declared only to be refused (a key typed on the command line). */
  refused: WeakSet<Argument>;
  /** What follows the root's options: examples, the environment, exit codes (made when shown). */
  rootEpilogue(): string;
}

/**
 * A global option's words for a command of its own formats (export, changes, webhook check): -o
 * lists them, --no-header those with a header row. Undefined: the option's own words.
 */
function ownFormatsDescription(option: Option, { formats, formatDefault }: AnyCommand): string | undefined {
  if (formats === undefined) return undefined;
  if (option.attributeName() === 'output')
    return `output format: ${formats.join(', ')}${formatDefault ? ` (default: ${formatDefault})` : ''}`;
  if (option.attributeName() === 'header' && formats.some((format) => HEADED_FORMATS.includes(format)))
    return headerDescription(formats);
  return undefined;
}

export function helpConfiguration(source: HelpSource, width: number): HelpConfiguration {
  const visibleArguments = (helper: Help, cmd: Command) =>
    Help.prototype.visibleArguments.call(helper, cmd).filter((arg) => !source.refused.has(arg));
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
      const words = [
        '[options]',
        ...(cmd.commands.length > 0 ? ['<command>'] : []),
        ...visibleArguments(this, cmd).map(argumentWord),
      ];
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
      const option = (o: Option) =>
        item(helper.styleOptionTerm(helper.optionTerm(o)), helper.styleOptionDescription(helper.optionDescription(o)));
      const description = helper.commandDescription(cmd);
      const spec = source.specOf(cmd);
      const text = [
        `${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(cmd))}`,
        '',
        ...(description
          ? [helper.boxWrap(helper.styleCommandDescription(description), helper.helpWidth ?? 80), '']
          : []),
        ...list(
          'Arguments:',
          helper
            .visibleArguments(cmd)
            .map((a) =>
              item(
                helper.styleArgumentTerm(helper.argumentTerm(a)),
                helper.styleArgumentDescription(helper.argumentDescription(a)),
              ),
            ),
        ),
        ...list(
          'Commands:',
          helper
            .visibleCommands(cmd)
            .map((c) =>
              item(
                helper.styleSubcommandTerm(helper.subcommandTerm(c)),
                helper.styleSubcommandDescription(helper.subcommandDescription(c)),
              ),
            ),
        ),
        ...list('Options:', helper.visibleOptions(cmd).map(option)),
        ...list(
          'Global Options:',
          helper.visibleGlobalOptions(cmd).map((o) => {
            const own = spec && ownFormatsDescription(o, spec);
            if (own === undefined) return option(o);
            return item(helper.styleOptionTerm(helper.optionTerm(o)), helper.styleOptionDescription(own));
          }),
        ),
        ...(spec?.examples?.length ? ['Examples:', ...spec.examples.map((example) => `  ${example}`), ''] : []),
        ...(cmd.commands.length > 0 ? [subcommandPointer(cmd), ''] : []),
        ...(cmd.parent ? [] : [source.rootEpilogue()]),
      ].join('\n');
      return wrapHelp(text, helper.helpWidth ?? 80);
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

/** The width help is wrapped to: the terminal's, else COLUMNS, else 80. */
export function helpWidth(io: {
  stdout: { isTTY?: boolean | undefined; columns?: number | undefined };
  env: Readonly<Record<string, string | undefined>>;
}): number {
  if (io.stdout.isTTY && io.stdout.columns) return io.stdout.columns;
  const columns = Number(io.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : 80;
}

/** Help lines that fit nowhere narrower: at least this wide, or a description is a word a line. */
const LEAST_HELP_WIDTH = 40;

/**
 * Help text with no line over `width`: a line that is longer is broken at spaces, its
 * continuation lines indented under the description when it is an item (`term  description`),
 * else two deeper than the line. Commander wraps its own lists; this catches the rest (the
 * examples, the environment, the exit codes). Help is ASCII: a character a column.
 */
export function wrapHelp(text: string, width: number): string {
  const room = Math.max(width, LEAST_HELP_WIDTH);
  let examples = false;
  return text
    .split('\n')
    .flatMap((line) => {
      examples = line === 'Examples:' || (examples && line !== '');
      if (line.length <= room) return [line];
      if (examples) return commandLines(line, room);
      const item = /^ *\S+(?: \S+)*? {2,}(?=\S)/.exec(line);
      const margin = /^ */.exec(line)![0].length;
      const lead = item && item[0].length <= room / 2 ? item[0].length : margin;
      // An item's description continues under itself; an indented line (an example) two deeper.
      const indent = lead > margin || margin === 0 ? lead : margin + 2;
      const [first = '', ...rest] = wrapWords(line.slice(lead), room - lead);
      return [
        `${line.slice(0, lead)}${first}`,
        ...wrapWords(rest.join(' '), room - indent).map((part) => `${' '.repeat(indent)}${part}`),
      ].filter((part, i) => i === 0 || part.trim() !== '');
    })
    .join('\n');
}

/**
 * An example too long for a line: broken between the shell's words (never inside quotes), each
 * line but the last ending in ` \\`, so that what is copied, whole, still runs as one command.
 */
function commandLines(line: string, room: number): string[] {
  const margin = /^ */.exec(line)![0];
  // A comment is one word (to the line's end): broken inside it, the rest would run as a command.
  // A word: quoted parts, escapes (`foo\ bar`) and, unbalanced, a lone quote, joined until a space.
  const words = line.slice(margin.length).match(/#.*$|(?:\\.|[^\s'"\\]+|'[^']*'|"(?:[^"\\]|\\.)*"|['"\\])+/g) ?? [];
  const lines: string[] = [];
  let current = margin;
  for (const word of words) {
    const joined = current.trim() === '' ? `${current}${word}` : `${current} ${word}`;
    if (current.trim() !== '' && joined.length + 2 > room) {
      lines.push(`${current} \\`);
      current = `${margin}  ${word}`;
    } else current = joined;
  }
  return [...lines, current];
}

/** Words into lines of at most `width` characters; a word longer than a line is cut. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      if (line !== '') lines.push(line);
      let rest = word;
      while (rest.length > width) {
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
      line = rest;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * What bare `cdata` prints: what it is, the commands most people start with, and where the rest
 * is; on stdout, at most 24 lines, exit 0 (help is asked for, not a mistake). Each command's line
 * fits in 60 columns, so it stays within 24 lines down to a terminal that narrow.
 */
export function overview(width: number): string {
  const text = [
    'cdata reads your company data from the API: tenders matched to the company, companies,',
    'documents, obligations, people, sites and agents, as tables at a terminal, JSON for',
    'scripts and CSV exports for cron.',
    '',
    'Try it with demo data, no account needed:',
    '  cdata --sandbox tenders',
    '',
    'Common commands:',
    '  cdata auth login         store an API key (from stdin)',
    '  cdata tenders            matched tenders, best tier first',
    '  cdata tenders OCID       one tender; any list takes a key',
    '  cdata obligations        what the company must do or get',
    '  cdata export --dir DIR   every list to files, for cron',
    '  cdata changes --dir DIR  the changes the last export found',
    '',
    'More:',
    '  cdata help               commands, options, exit codes',
    '  cdata help COMMAND       one command, with examples',
    '',
  ].join('\n');
  // Paragraphs as one line each, then wrapped: the first three lines are one.
  const [intro, ...rest] = text.split('\n\n');
  return [wrapHelp(intro!.replace(/\n/g, ' '), width), ...rest.map((part) => wrapHelp(part, width))].join('\n\n');
}
