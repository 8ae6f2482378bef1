// The config file's shape, shared by the reader (every command) and the writer (auth, profile,
// config commands). One file, mode 0600, holding profiles:
//   { "defaultProfile": "prod", "profiles": { "prod": { "key": "svc_…", "baseUrl": "https://…" } } }
// A profile holds a key, or a command that prints one (`keyCommand`, docs/keys-and-profiles.md), never both.
import { normaliseBaseUrl } from '../core/base-url.js';
import { errorMessage, UsageError, hintOf } from '../core/errors.js';
import { parseChoice, parseSeconds } from '../core/parse.js';
import { keyCommandProblem } from './key.js';
import { didYouMean } from '../core/similar.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type Format = (typeof FORMATS)[number];
/** Whether a format (as given, in any case) prints JSON: json or ndjson. */
export const isJsonFormat = (format: string | undefined): boolean =>
  format !== undefined && /^(nd)?json$/i.test(format);
/** What `cdata export` writes: every format but the table, which is for reading. */
export const EXPORT_FORMATS = ['csv', 'json', 'ndjson', 'tsv'] as const satisfies readonly Format[];

/** Profile names: no dots (conf would nest them), nothing that could reach Object.prototype. */
export const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const DEFAULT_PROFILE = 'default';

/** A usage error unless `name` is a valid profile name; the name is shown escaped (it came from argv or env). */
export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `invalid profile name ${JSON.stringify(name)}: use lowercase letters, digits, '-' and '_' (at most 64, starting with a letter or digit)`,
    );
  }
  return name;
}

/** The error for a profile that is not in the config file, listing the ones that are. */
export function noProfileError(name: string, data: ConfigData, hint?: string): UsageError {
  const names = Object.keys(data.profiles);
  // A typo of a profile there is likelier than one to create.
  const similar = didYouMean(name, names);
  return new UsageError(
    `no profile '${name}' ${names.length ? `(profiles: ${names.join(', ')})` : '(there are no profiles yet)'}`,
    hintOf(similar && hint ? `${similar} If not, ${hint[0]!.toLowerCase()}${hint.slice(1)}` : (similar ?? hint)),
  );
}

export interface ProfileData {
  key?: string;
  /** Run through /bin/sh -c whenever the key is needed; its first line of output is the key. */
  keyCommand?: string;
  baseUrl?: string;
  output?: Format;
  /** Seconds. */
  timeout?: number;
  /** The pager for data at a terminal; '' for none. */
  pager?: string;
}

export interface ConfigData {
  defaultProfile?: string;
  profiles: Record<string, ProfileData>;
}

/** Settings a user may `cdata config set`, with the profile property each is stored under. */
export const SETTINGS = {
  'base-url': 'baseUrl',
  output: 'output',
  timeout: 'timeout',
  'key-command': 'keyCommand',
  pager: 'pager',
} as const satisfies Record<string, keyof ProfileData>;

export type SettingName = keyof typeof SETTINGS;

/** Why `data` is not a valid config, or undefined when it is. */
export function configProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'the file is not a JSON object';
  const { defaultProfile, profiles } = data as Record<string, unknown>;
  if (defaultProfile !== undefined && (typeof defaultProfile !== 'string' || !PROFILE_NAME.test(defaultProfile))) {
    return 'defaultProfile is not a valid profile name';
  }
  if (profiles === undefined) return undefined;
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) return 'profiles is not an object';
  for (const [name, profile] of Object.entries(profiles)) {
    if (!PROFILE_NAME.test(name)) return `profile name '${name}' is not valid`;
    if (typeof profile !== 'object' || profile === null || Array.isArray(profile))
      return `profiles.${name} is not an object`;
    const problem = shapeProblem(`profiles.${name}`, profile as Record<string, unknown>);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * What every profile must be for cdata to read the file at all: each setting of its type, and a
 * key or a key command, never both (which one would win is anybody's guess: the file is refused
 * rather than one of them ignored). Values are checked where they are used (storedValueProblem).
 */
function shapeProblem(at: string, profile: Record<string, unknown>): string | undefined {
  const { key, keyCommand, baseUrl, output, timeout, pager } = profile;
  if (key !== undefined && typeof key !== 'string') return `${at}.key is not a string`;
  if (keyCommand !== undefined) {
    if (typeof keyCommand !== 'string') return `${at}.keyCommand is not a string`;
    if (key !== undefined) return `${at} holds both key and keyCommand: a profile holds one or the other`;
  }
  if (baseUrl !== undefined && typeof baseUrl !== 'string') return `${at}.baseUrl is not a string`;
  if (output !== undefined && typeof output !== 'string') return outputProblem(at, output);
  if (timeout !== undefined && typeof timeout !== 'number') return timeoutProblem(at, timeout);
  if (pager !== undefined && typeof pager !== 'string')
    return `${at}.pager is not a string (got ${JSON.stringify(pager)})`;
  return undefined;
}

/**
 * Why a stored setting fails the checks `cdata config set` gives it (settings.ts): a timeout above
 * 0 up to a day, a format by name in any case, a base URL cdata would accept, a key command
 * that is a command (not a pasted key). Asked where the
 * value is used (resolve.ts, api.ts), so a bad value in a profile not in use, or one a flag or
 * the environment overrides, stops nothing: not `--sandbox`, not the command that would fix it.
 * The key's own characters are left to the command that sends it (exit 3 there).
 */
export function storedValueProblem(at: string, setting: StoredSetting, value: string | number): string | undefined {
  if (setting === 'keyCommand') {
    const refused = keyCommandProblem(String(value));
    return refused && `${at}.keyCommand cannot be run: ${refused}`;
  }
  if (setting === 'baseUrl') {
    const refused = refusal(() => normaliseBaseUrl(String(value)));
    return refused && `${at}.baseUrl is not a base URL cdata can use: ${refused}`;
  }
  if (setting === 'output')
    return refusal(() => parseChoice(String(value), FORMATS, 'output')) && outputProblem(at, value);
  return refusal(() => parseSeconds('timeout', String(value), false)) && timeoutProblem(at, value);
}

const outputProblem = (at: string, value: unknown) =>
  `${at}.output is not one of ${FORMATS.join(', ')} (got ${JSON.stringify(value)})`;
const timeoutProblem = (at: string, value: unknown) =>
  `${at}.timeout is not a number of seconds above 0 up to 86400, as \`config set timeout\` takes (got ${JSON.stringify(value)})`;

/** The stored settings whose values are checked where they are used. */
export type StoredSetting = 'baseUrl' | 'output' | 'timeout' | 'keyCommand';

/** What `check` throws, as text; undefined when it passes. */
function refusal(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}
