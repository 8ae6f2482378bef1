// What the generated docs (the README's command table, the man page) read from the command
// registry: each command a user can run, with the words of its synopsis. Kept to a thin walk of
// COMMANDS so the docs follow the registry whatever shape it takes.
import { COMMANDS } from '../commands/index.js';
import type { ArgSpec, OptionSpec } from '../core/option.js';
import { runs, walkCommands, type AnyCommand } from '../command-kit/command.js';

export interface Runnable {
  /** e.g. ['auth', 'login']. */
  path: string[];
  spec: AnyCommand;
}

/** Every command that runs (groups such as `auth` only hold them), in help's order; hidden ones left out. */
export function runnableCommands(): Runnable[] {
  const hidden = new Set(walkCommands(COMMANDS).flatMap(({ spec, path }) => (spec.hidden ? [path.join(' ')] : [])));
  const inHidden = (path: string[]) => path.some((_, i) => hidden.has(path.slice(0, i + 1).join(' ')));
  return walkCommands(COMMANDS).filter(({ spec, path }) => runs(spec) && !inHidden(path));
}

export const visibleArgs = (spec: AnyCommand): ArgSpec[] => (spec.args ?? []).filter((a: ArgSpec) => !a.hidden);
export const visibleOptions = (
  options: Readonly<Record<string, OptionSpec<unknown>>> | undefined,
): OptionSpec<unknown>[] => Object.values(options ?? {}).filter((o) => !o.hidden);

/** How a synopsis sets its words: plain in Markdown, bold and italic in the man page. */
export interface SynopsisStyle {
  /** Typed as shown: `cdata`, `tenders`, `--limit`. */
  literal(word: string): string;
  /** Replaced by the user: `N`, `RESOURCE...`. */
  placeholder(word: string): string;
}

const PLAIN: SynopsisStyle = { literal: (word) => word, placeholder: (word) => word };

/** `RESOURCE...`, or `[NAME]` when optional. */
export function argWord(arg: ArgSpec, style: SynopsisStyle = PLAIN): string {
  const word = style.placeholder(`${arg.name.toUpperCase()}${arg.variadic ? '...' : ''}`);
  return arg.required ? word : `[${word}]`;
}

/** The flags and the value's name: `--limit`, `-l`, `N` (no value for a switch). */
export function optionParts(option: OptionSpec<unknown>): { long: string; short?: string; value?: string } {
  const long = /--[a-z][a-z0-9-]*/.exec(option.flags)![0];
  const short = /^(-[a-zA-Z]),/.exec(option.flags)?.[1];
  const value = /<([a-z,/]+)>/i.exec(option.flags)?.[1]?.toUpperCase();
  return { long, ...(short ? { short } : {}), ...(value ? { value } : {}) };
}

/** `--limit N`, or `[--limit N]` when optional. */
export function optionWord(option: OptionSpec<unknown>, style: SynopsisStyle = PLAIN): string {
  const { long, value } = optionParts(option);
  const word = `${style.literal(long)}${value ? ` ${style.placeholder(value)}` : ''}`;
  return option.required ? word : `[${word}]`;
}

/** `cdata tenders [--tier TIER] ... [--limit N]`. */
export function synopsis({ path, spec }: Runnable, style: SynopsisStyle = PLAIN): string {
  return [
    ...['cdata', ...path].map((word) => style.literal(word)),
    ...visibleArgs(spec).map((arg) => argWord(arg, style)),
    ...visibleOptions(spec.options).map((option) => optionWord(option, style)),
  ].join(' ');
}
