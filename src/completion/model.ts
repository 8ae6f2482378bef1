// The command registry as completion scripts need it: each command's path, the names it answers
// to, its options (short and long, whether they take a value, where values come from), its
// arguments and, for endpoint commands, its field names. Generators for bash, zsh and fish read
// only this, so every script completes exactly what the registry declares.
import { COMMANDS, GLOBAL_OPTIONS } from '../commands/index.js';
import type { ArgSpec, CommandSpec, Completion, OptionSpec } from '../commands/spec.js';
import { fieldNames, LIST_ENDPOINTS } from '../endpoints.js';
import { SETTINGS } from '../config/schema.js';

export interface CompletionOption {
  short: string | undefined;
  long: string;
  takesValue: boolean;
  /** Where its values come from; undefined for a free value (a URL, a number). */
  complete: Completion | undefined;
  description: string;
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
}

export const RESOURCE_NAMES = LIST_ENDPOINTS.map((e) => e.name);
export const SETTING_NAMES = Object.keys(SETTINGS);
/** The hidden command the scripts call for values only the config file knows. */
export const DYNAMIC_COMMAND = '__complete';

export function completionTree(): { root: CompletionNode; global: CompletionOption[] } {
  const node = (spec: CommandSpec, parent: string[]): CompletionNode => {
    const path = [...parent, spec.name];
    return {
      path,
      name: spec.name,
      aliases: [...(spec.aliases ?? [])],
      summary: spec.summary,
      options: (spec.options ?? []).filter((o) => !o.hidden).map(toOption),
      // All of them, so positions stay right; generators skip those without values to offer.
      args: [...(spec.args ?? [])],
      children: (spec.subcommands ?? []).filter((s) => !s.hidden).map((s) => node(s, path)),
      fields: spec.endpoint ? fieldNames(spec.endpoint) : undefined,
    };
  };
  return {
    root: {
      path: [],
      name: 'cdata',
      aliases: [],
      summary: 'cdata',
      options: [],
      args: [],
      children: COMMANDS.filter((c) => !c.hidden).map((c) => node(c, [])),
      fields: undefined,
    },
    global: GLOBAL_OPTIONS.filter((o) => !o.hidden).map(toOption),
  };
}

/** Every node below `root`, depth first. */
export function allNodes(root: CompletionNode): CompletionNode[] {
  return root.children.flatMap((child) => [child, ...allNodes(child)]);
}

function toOption(spec: OptionSpec): CompletionOption {
  const short = /(?:^|[\s,])(-[a-zA-Z])\b/.exec(spec.flags)?.[1];
  const long = /--[a-z][a-z0-9-]*/.exec(spec.flags)![0];
  return { short, long, takesValue: /[<[]/.test(spec.flags), complete: spec.complete, description: spec.description };
}

/** The fixed values of a completion kind; undefined for kinds a shell computes (files, profiles, fields). */
export function fixedValues(complete: Completion | undefined): readonly string[] | undefined {
  if (!complete) return undefined;
  if (complete.kind === 'values') return complete.values;
  if (complete.kind === 'resources') return RESOURCE_NAMES;
  if (complete.kind === 'settings') return SETTING_NAMES;
  return undefined;
}
