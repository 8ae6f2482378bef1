// The command registry as completion scripts need it: each command's path, the names it answers
// to, its options (short and long, whether they take a value, where values come from), its
// arguments and, for endpoint commands, its field names. Generators for bash, zsh and fish read
// only this, so every script completes exactly what the registry declares.
import type { ArgSpec, Completion, OptionSpec } from '../core/option.js';
import { fieldNames, LIST_ENDPOINTS } from '../core/endpoints.js';
import { FORMATS, SETTINGS, type SettingName } from '../config/schema.js';
import { runs, type AnyCommand } from '../command-kit/command.js';
import { GLOBAL_OPTIONS } from '../command-kit/globals.js';
import { globalApplies } from '../command-kit/applies.js';

export interface CompletionOption {
  short: string | undefined;
  long: string;
  takesValue: boolean;
  /** Where its values come from; undefined for a free value (a URL, a number). */
  complete: Completion | undefined;
  description: string;
  /** The names (short and long) of the options it cannot go with: not offered once it is given. */
  excludes: string[];
}

export interface CompletionNode {
  /** Canonical names from the root, e.g. ['auth', 'login']; [] for cdata itself. */
  path: string[];
  name: string;
  aliases: string[];
  summary: string;
  options: CompletionOption[];
  args: ArgSpec[];
  children: CompletionNode[];
  /** Field names, for the endpoint commands (completing --fields). */
  fields: string[] | undefined;
  /** Global options (long names) not offered here: refused by the command, or replaced in `options`. */
  omitGlobal: string[];
}

export const RESOURCE_NAMES = LIST_ENDPOINTS.map((e) => e.name);
export const SETTING_NAMES = Object.keys(SETTINGS);
/** The settings whose values are a fixed list (base-url and timeout are free). */
export const SETTING_VALUES: Partial<Record<SettingName, readonly string[]>> = { output: FORMATS };
/** The hidden command the scripts call for values only the config file knows. */
export const DYNAMIC_COMMAND = '__complete';

/** The command a completion script runs for the profile names, one a line (the same in every shell). */
export const PROFILE_NAMES = `command cdata ${DYNAMIC_COMMAND} profiles 2>/dev/null`;

/** commander's own: help on every command, the version at the top. */
const HELP: CompletionOption = {
  short: '-h',
  long: '--help',
  takesValue: false,
  complete: undefined,
  description: 'show help',
  excludes: [],
};
const VERSION: CompletionOption = {
  short: '-V',
  long: '--version',
  takesValue: false,
  complete: undefined,
  description: 'print the version',
  excludes: [],
};

export function completionTree(commands: readonly AnyCommand[]): { root: CompletionNode; global: CompletionOption[] } {
  const global = [...visible(GLOBAL_OPTIONS).map((option) => toOption(option, GLOBAL_OPTIONS)), HELP];
  const node = (spec: AnyCommand, parent: string[]): CompletionNode => {
    const path = [...parent, spec.name];
    const leaf = runs(spec);
    // The global options that do nothing for a command (as its help leaves them out), or are
    // refused by it (--out where the output is not data, --sandbox for auth login): not offered.
    // A command that takes only some formats gets its own -o with those values in its place.
    const omitGlobal = leaf
      ? Object.entries(GLOBAL_OPTIONS)
          .filter(([name, option]) => !option.hidden && !globalApplies(name, spec))
          .map(([, option]) => toOption(option).long)
      : [];
    const output = global.find((o) => o.long === '--output');
    const ownOutput =
      spec.formats && output
        ? [
            {
              ...output,
              complete: { kind: 'values', values: spec.formats } as const,
              description: `output format: ${spec.formats.join(', ')}`,
            },
          ]
        : [];
    if (ownOutput.length > 0 && !omitGlobal.includes('--output')) omitGlobal.push('--output');
    return {
      path,
      name: spec.name,
      aliases: [...(spec.aliases ?? [])],
      summary: spec.summary,
      options: [...visible(spec.options ?? {}).map((option) => toOption(option, spec.options)), ...ownOutput],
      // All of them, so positions stay right; generators skip those without values to offer.
      args: [...(spec.args ?? [])],
      children: (spec.subcommands ?? []).filter((s) => !s.hidden).map((s) => node(s, path)),
      fields: spec.view ? fieldNames(spec.view) : undefined,
      omitGlobal,
    };
  };
  return {
    root: {
      path: [],
      name: 'cdata',
      aliases: [],
      summary: 'cdata',
      options: [VERSION],
      args: [],
      children: commands.filter((c) => !c.hidden).map((c) => node(c, [])),
      fields: undefined,
      omitGlobal: [],
    },
    global,
  };
}

/**
 * What `cdata help` completes (`kind: 'commands'`): the commands, then after a group's name (an
 * alias too) the group's subcommands.
 */
export function commandWords(root: CompletionNode): {
  commands: string[];
  groups: { names: string[]; subcommands: string[] }[];
} {
  const names = (node: CompletionNode) => [node.name, ...node.aliases];
  return {
    commands: root.children.flatMap(names),
    groups: root.children
      .filter((child) => child.children.length > 0)
      .map((group) => ({ names: names(group), subcommands: group.children.flatMap(names) })),
  };
}

/** Every node below `root`, depth first. */
export function allNodes(root: CompletionNode): CompletionNode[] {
  return root.children.flatMap((child) => [child, ...allNodes(child)]);
}

/** The global options offered at `node`. */
export function globalAt(node: CompletionNode, global: readonly CompletionOption[]): CompletionOption[] {
  return global.filter((o) => !node.omitGlobal.includes(o.long));
}

type Options = Readonly<Record<string, OptionSpec<unknown>>>;

function visible(options: Options): OptionSpec<unknown>[] {
  return Object.values(options).filter((option) => !option.hidden);
}

/** `siblings`: the command's options, which `conflicts` names (both ways: either may declare it). */
function toOption(spec: OptionSpec<unknown>, siblings: Options = {}): CompletionOption {
  const names = (option: OptionSpec<unknown>) => {
    const short = /(?:^|[\s,])(-[a-zA-Z])\b/.exec(option.flags)?.[1];
    return { short, long: /--[a-z][a-z0-9-]*/.exec(option.flags)![0] };
  };
  const ownName = Object.keys(siblings).find((name) => siblings[name] === spec);
  const excluded = Object.entries(siblings)
    .filter(
      ([name, other]) =>
        spec.conflicts?.includes(name) || (ownName !== undefined && other.conflicts?.includes(ownName)),
    )
    .flatMap(([, other]) => {
      const { short, long } = names(other);
      return short ? [short, long] : [long];
    });
  return {
    ...names(spec),
    takesValue: /[<[]/.test(spec.flags),
    complete: spec.complete,
    description: spec.description,
    excludes: [...new Set(excluded)],
  };
}

/** Whether the value is a comma-separated list of what `complete` offers (each name after a comma completes too). */
export function isList(complete: Completion | undefined): boolean {
  return complete !== undefined && 'list' in complete && complete.list === true;
}

/** The fixed values of a completion kind; undefined for kinds a shell computes (files, profiles, fields). */
export function fixedValues(complete: Completion | undefined): readonly string[] | undefined {
  if (!complete) return undefined;
  if (complete.kind === 'values') return complete.values;
  if (complete.kind === 'resources') return RESOURCE_NAMES;
  if (complete.kind === 'settings') return SETTING_NAMES;
  return undefined;
}
