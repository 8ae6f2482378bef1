// What the command line names before commander parses it: the words that are commands (not
// options, nor the values of global options), so that only the command that runs is built
// (building all of them costs every run ~5 ms); and one mistake said better than commander can.
import { COMMANDS } from './commands/index.js';
import { fieldNames } from './core/endpoints.js';
import { UsageError } from './core/errors.js';
import { isNamed, type AnyCommand } from './command-kit/command.js';
import { GLOBAL_OPTIONS } from './command-kit/globals.js';

/** Global flags that take a value (`-p prod`, `--timeout 5`): the next word is theirs. */
const VALUE_FLAGS = new Set(
  Object.values(GLOBAL_OPTIONS)
    .filter((option) => option.flags.includes('<'))
    .flatMap((option) => option.flags.split(/[ ,]+/).filter((word) => word.startsWith('-'))),
);

/**
 * The words of argv that are neither options nor a global option's value, with their indexes,
 * up to `--`. A command's own options' values are among them (`export --dir out`): a reader
 * walking commands stops at the first word that is not one.
 */
export function positionals(argv: readonly string[]): { word: string; at: number }[] {
  const found: { word: string; at: number }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      if (!word.includes('=') && VALUE_FLAGS.has(word)) i++;
    } else if (word.startsWith('-') && word.length > 1) {
      // A cluster of short flags (-qp prod): one that takes a value takes the rest of the word, or the next.
      const at = [...word.slice(1)].findIndex((letter) => VALUE_FLAGS.has(`-${letter}`));
      if (at === word.length - 2) i++;
    } else {
      found.push({ word, at: i });
    }
  }
  return found;
}

const named = (word: string) => (spec: AnyCommand) => isNamed(spec, word);

/**
 * The command argv runs, found as commander would find it: the first positional word. undefined
 * when there is none, or it is not a command; then all are built, for the root's help and
 * commander's suggestions.
 */
export function invoked(argv: readonly string[]): AnyCommand | undefined {
  const [first] = positionals(argv);
  // `--help` before the command is the root's help, which lists every command.
  if (argv.slice(0, first?.at ?? argv.length).some(asksHelp)) return undefined;
  return first && COMMANDS.find(named(first.word));
}

/** `--help`, `-h`, or a cluster of short flags with h before any that takes a value (-qh). */
function asksHelp(word: string): boolean {
  if (word === '--help') return true;
  if (!/^-[^-]/.test(word)) return false;
  const letters = [...word.slice(1)];
  const at = letters.findIndex((letter) => VALUE_FLAGS.has(`-${letter}`));
  return letters.slice(0, at < 0 ? undefined : at).includes('h');
}

/**
 * gh's habit, `--json ocid,title`: in cdata --json is -o json and takes no value, so commander
 * would call the field list a stray argument ("too many arguments"). When the word after --json
 * (or after `--json=`) is a list of the command's own field names, the error that says what works
 * instead (docs/help.md: explained, not accepted).
 */
export function refuseJsonFields(argv: readonly string[]): UsageError | undefined {
  // The command is the first positional word that names one: `cdata --json ocid tenders` puts the
  // field list first, where commander would take it for the command.
  const command = positionals(argv).find(({ word }) => COMMANDS.some(named(word)));
  const view = command && COMMANDS.find(named(command.word))?.view;
  if (!view) return undefined;
  const fields = new Set(fieldNames(view));
  const isFieldList = (word: string | undefined) =>
    word !== undefined && word !== '' && word.split(',').every((name) => fields.has(name.trim()));
  const commandAt = command.at;
  for (const [i, word] of argv.entries()) {
    if (word === '--') break;
    const list = word.startsWith('--json=')
      ? word.slice('--json='.length)
      : word === '--json' && i + 1 !== commandAt
        ? argv[i + 1]
        : undefined;
    if (!isFieldList(list)) continue;
    return new UsageError('--json takes no field list: it is -o json, and fields are chosen with --fields', {
      hint: `Write --json --fields ${list} (gh's --json FIELDS is cdata's --json --fields FIELDS).`,
    });
  }
  return undefined;
}
