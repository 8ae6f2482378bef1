// What commander's usage errors say, said better: the help to run for the command that failed
// (an unknown subcommand's group), commander's suggestion as a hint, a switch given a value named
// as such, and never what followed an unknown option's name (it may be a secret typed there).
import type { Command, CommanderError } from 'commander';
import { positionals } from './argv.js';
import { UsageError } from './core/errors.js';

export function commanderMistake(error: CommanderError, program: Command, argv: readonly string[]): UsageError {
  // The command whose help helps: for an unknown subcommand, its group's (`cdata auth --help`).
  const { path: command, command: found } = commandPath(program, argv);
  // Commander's second line, when there is one, is a suggestion: "(Did you mean tenders?)",
  // which reads better in the hint without its parentheses.
  const [first = '', ...more] = withoutOptionValues(error.message.replace(/^error: /, '')).split('\n');
  const valueless = switchWithValue(first, found, program);
  const message =
    error.code === 'commander.unknownCommand' && command !== 'cdata'
      ? `${first} for '${command}'`
      : (valueless ?? missingValue(first) ?? first);
  const suggestions = valueless
    ? []
    : more.map((line) => line.replace(/^\((.*)\)$/, '$1')).filter((line) => namesReal(line, found, program));
  // `cdata -- --sandbox tenders`: after `--` an option is taken as a command's name.
  const afterDashes = error.code === 'commander.unknownCommand' && /^unknown command '-/.test(first);
  const dashes = afterDashes ? ['Words after -- are never options: leave the -- out.'] : [];
  return new UsageError(message, {
    hint: [...dashes, ...suggestions, `Run '${command} --help' for usage.`].join(' '),
  });
}

/**
 * Whether commander's "Did you mean X?" names commands or options that exist: for a word after
 * `--` that starts with dashes, commander cuts two characters off each name it compares with,
 * and offered `--ndbox` for `--sandbox`.
 */
function namesReal(line: string, command: Command, program: Command): boolean {
  const names = /^Did you mean (?:one of )?(.+)\?$/.exec(line)?.[1]?.split(', ');
  if (names === undefined) return true;
  const known = new Set<string | undefined>(['--help', '-h']);
  for (const c of [...command.commands, ...program.commands])
    for (const name of [c.name(), ...c.aliases()]) known.add(name);
  for (const o of [...command.options, ...program.options]) known.add(o.long).add(o.short);
  return names.every((name) => known.has(name));
}

/**
 * Commander quotes an unknown option whole, and what follows its name may be a secret typed where
 * it does not belong (`--password=…`, `-phunter2`), so only the name is echoed: `'--password=…'`,
 * `'-p…'`. The quoted text runs to the end of the line, whatever quotes it holds.
 */
function withoutOptionValues(message: string): string {
  // The token may hold quotes and line breaks; commander's suggestion, if any, is the last line.
  return message.replace(
    /^(unknown option ')([^]*)'(\n\(Did you mean [^\n]*\))?$/,
    (_all, lead: string, token: string, more = '') => `${lead}${optionName(token)}'${more}`,
  );
}

function optionName(token: string): string {
  if (token.startsWith('--')) {
    const name = /^--[^=\n]*/.exec(token)![0];
    const rest = token.slice(name.length);
    return rest === '' ? token : `${name}${rest.startsWith('=') ? '=' : ''}…`;
  }
  return token.length > 2 ? `${token.slice(0, 2)}…` : token;
}

/** `cdata auth`: the commands argv names, as far as they are commands. */
function commandPath(program: Command, argv: readonly string[]): { path: string; command: Command } {
  const names: string[] = ['cdata'];
  let current = program;
  for (const { word } of positionals(argv)) {
    const next = current.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    names.push(next.name());
    current = next;
  }
  return { path: names.join(' '), command: current };
}

/**
 * `--decided=false`: commander calls it unknown, as a switch takes no value; said as that, when
 * the name is a switch of the command (or a global one).
 */
function switchWithValue(message: string, command: Command, program: Command): string | undefined {
  const name = /^unknown option '(--[^=']+)=/.exec(message)?.[1];
  const option = [...command.options, ...program.options].find((o) => o.long === name);
  if (option === undefined || option.required || option.optional) return undefined;
  return `${name} takes no value: give it alone, or leave it out`;
}

/** `--limit` last, with nothing after it: commander's "option '-l, --limit <n>' argument missing", said as cdata says the rest. */
function missingValue(message: string): string | undefined {
  const found = /^option '(?:-\w, )?(--[\w-]+) ([<[][^>\]]+[>\]])' argument missing$/.exec(message);
  return found ? `${found[1]} needs a value: ${found[1]} ${found[2]}` : undefined;
}
