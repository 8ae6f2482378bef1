// Options and arguments as typed data: each declared once with its flags, help, completion,
// default and parser, and the value a handler receives typed from that declaration (in the
// spirit of gh's options structs and vercel's typed flag specs). Commander only splits argv; the
// parser here turns what it found into the handler's value, so a handler never converts or casts.
import { UsageError } from './errors.js';

/** Where completions find the values of an option or argument. */
export type Completion =
  /** `list`: a comma-separated list of them (`--change added,removed`): each name after a comma completes too. */
  | { kind: 'values'; values: readonly string[]; list?: true }
  | { kind: 'fields' }
  | { kind: 'profiles'; list?: true }
  | { kind: 'resources' }
  | { kind: 'settings' }
  /** The value of the setting named just before it (config set output <TAB>). */
  | { kind: 'settingValue' }
  | { kind: 'files' }
  | { kind: 'dirs' }
  /** A command, then after a group's name its subcommands (`cdata help auth <TAB>`). */
  | { kind: 'commands' };

/** What commander found for an option: a string for `<value>` flags, true for a switch (false for a given `--no-x`), undefined when absent. */
export type RawOption = string | boolean | undefined;

export interface OptionSpec<T> {
  /** commander flags, e.g. `-l, --limit <n>`. */
  readonly flags: string;
  readonly description: string;
  /** From what commander found to the handler's value; throws a UsageError for a bad one. */
  readonly parse: (raw: RawOption) => T;
  /** Shown in help as `(default: …)`. */
  readonly defaultText?: string | undefined;
  readonly complete?: Completion | undefined;
  /**
   * The command cannot run without it: absent or empty, the error this makes is thrown while the
   * options are parsed, before the handler runs. Shown unbracketed in synopses.
   */
  readonly required?: (() => Error) | undefined;
  /** Options of the same command (by their names in its option map) that cannot be given with this one. */
  readonly conflicts?: readonly string[] | undefined;
  /** Parsed but left out of help and completions (refused options, which must not be echoed). */
  readonly hidden?: boolean | undefined;
}

export type OptionMap = { readonly [name: string]: OptionSpec<unknown> };

/** The values a handler receives for an option map. */
export type Values<O extends OptionMap> = {
  readonly [K in keyof O]: NonNullable<O[K]> extends OptionSpec<infer T> ? T : never;
};

type Extra = Pick<OptionSpec<unknown>, 'complete' | 'hidden' | 'defaultText' | 'conflicts'>;

/** A switch: true when given. */
export function flag(flags: string, description: string, extra: Extra = {}): OptionSpec<boolean> {
  return { flags, description, ...extra, parse: (raw) => raw === true };
}

/** `--no-x`: true unless given. */
export function negatable(flags: string, description: string): OptionSpec<boolean> {
  return { flags, description, parse: (raw) => raw !== false };
}

/** A free text value: undefined when absent, unless it is required (then never absent or empty). */
export function text(flags: string, description: string, extra?: Extra): OptionSpec<string | undefined>;
export function text(flags: string, description: string, extra: Extra & { required: () => Error }): OptionSpec<string>;
export function text(
  flags: string,
  description: string,
  extra: Extra & { required?: () => Error } = {},
): OptionSpec<string | undefined> {
  return { flags, description, ...extra, parse: (raw) => (typeof raw === 'string' ? raw : undefined) };
}

/** A value parsed by `parse`; the default (stated once, here, and shown in help) when absent. */
export function value<T>(
  flags: string,
  description: string,
  parse: (raw: string) => T,
  extra?: Extra,
): OptionSpec<T | undefined>;
export function value<T>(
  flags: string,
  description: string,
  parse: (raw: string) => T,
  extra: Extra & { default: T },
): OptionSpec<T>;
export function value<T>(
  flags: string,
  description: string,
  parse: (raw: string) => T,
  extra: Extra & { default?: T } = {},
): OptionSpec<T | undefined> {
  const { default: fallback, ...rest } = extra;
  return {
    flags,
    description,
    ...rest,
    defaultText: rest.defaultText ?? (fallback === undefined ? undefined : String(fallback)),
    parse: (raw) => (typeof raw === 'string' ? parse(raw) : fallback),
  };
}

/**
 * An option that is declared only to be refused, with advice, whatever its value: undeclared,
 * commander would echo `--secret=whsec_…` in its "unknown option" error. Never shown.
 */
export function refused(flags: string, refuse: () => Error): OptionSpec<undefined> {
  return {
    flags,
    description: 'not accepted',
    hidden: true,
    parse: (raw) => {
      if (raw !== undefined) throw refuse();
      return undefined;
    },
  };
}

export interface ArgSpec {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  readonly variadic?: boolean;
  /** Declared only to be refused (a key typed on the command line): not shown, and `refuse` throws when it is given. */
  readonly hidden?: boolean;
  readonly refuse?: () => Error;
  readonly complete?: Completion;
}

/** The values a handler receives for its arguments, in order: a variadic one as a list. */
export type ArgValues<A extends readonly ArgSpec[]> = {
  readonly [K in keyof A]: A[K] extends { variadic: true }
    ? string[]
    : A[K] extends { required: true }
      ? string
      : string | undefined;
};

/**
 * Each option's value parsed from what commander found (`raw` by the option's attribute name),
 * after the declarations' rules: no value that is the next option's name, options that cannot go
 * together, then the required ones.
 */
export function parseValues<O extends OptionMap>(
  options: O,
  raw: (option: OptionSpec<unknown>) => RawOption,
): Values<O> {
  const flags = new Set(Object.values(options).flatMap((option) => option.flags.split(/[ ,]+/)));
  for (const option of Object.values(options)) {
    // `export --profiles --dir X`: commander gives --profiles the word after it, whatever it is.
    const found = raw(option);
    const name = typeof found === 'string' ? found.split('=')[0]! : '';
    if (name.startsWith('-') && flags.has(name))
      throw new UsageError(`${longFlag(option)} has no value: the option after it, ${name}, was taken as its value`, {
        hint: `Give ${longFlag(option)} a value of its own (an empty variable leaves it none).`,
      });
  }
  refuseConflicts(options, raw);
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(options)) {
    const found = raw(option);
    if (option.required && found === undefined) throw option.required();
    // `--dir "$DIR"` with DIR unset or blank: named as what it is, not as the option left out (and
    // never a folder named by spaces).
    if (option.required && typeof found === 'string' && found.trim() === '') throw blankValue(longFlag(option), found);
    values[name] = option.parse(found);
  }
  return values as Values<O>;
}

/** The error for a value that is empty or only spaces, where a name (a file, a folder) was wanted. */
export function blankValue(flag: string, given: string, wanted = 'a value'): UsageError {
  return new UsageError(`${flag} needs ${wanted}: it was given ${given === '' ? 'an empty one' : 'only spaces'}`);
}

/** A usage error for two options given that `conflicts` says cannot go together. */
export function refuseConflicts(options: OptionMap, raw: (option: OptionSpec<unknown>) => RawOption): void {
  const given = (option: OptionSpec<unknown> | undefined) => option !== undefined && raw(option) !== undefined;
  for (const option of Object.values(options)) {
    const other = option.conflicts?.map((name) => options[name]).find(given);
    if (other && given(option))
      throw new UsageError(`${longFlag(option)} and ${longFlag(other)} cannot be used together`);
  }
}

/** `--limit` of `-l, --limit <n>`. */
export function longFlag(option: OptionSpec<unknown>): string {
  return option.flags.split(/[ ,]+/).find((word) => word.startsWith('--')) ?? option.flags;
}

/** As parseValues, but each value is parsed when first read (the global options: resolution decides when). */
export function lazyValues<O extends OptionMap>(
  options: O,
  raw: (option: OptionSpec<unknown>) => RawOption,
): Values<O> {
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(options)) {
    let parsed: { value: unknown } | undefined;
    Object.defineProperty(values, name, {
      enumerable: true,
      get: () => (parsed ??= { value: option.parse(raw(option)) }).value,
    });
  }
  return values as Values<O>;
}

/** The handler's arguments from commander's, refusing the ones that are declared only to be refused. */
export function parseArgs<A extends readonly ArgSpec[]>(specs: A, given: readonly unknown[]): ArgValues<A> {
  return specs.map((spec, i) => {
    const value = given[i];
    if (spec.refuse && value !== undefined && !(Array.isArray(value) && value.length === 0)) throw spec.refuse();
    if (spec.variadic) return Array.isArray(value) ? value.map(String) : [];
    return typeof value === 'string' ? value : undefined;
  }) as unknown as ArgValues<A>;
}
