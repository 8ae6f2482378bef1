// The config file's shape, shared by the reader (every command) and the writer (auth, profile,
// config commands). One file, mode 0600, holding profiles:
//   { "defaultProfile": "prod", "profiles": { "prod": { "key": "svc_…", "baseUrl": "https://…" } } }
import { normaliseBaseUrl } from '../core/base-url.js';
import { UsageError } from '../core/errors.js';
import { parseChoice, parseSeconds } from '../core/parse.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type Format = (typeof FORMATS)[number];
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
  return new UsageError(`no profile '${name}' ${names.length ? `(profiles: ${names.join(', ')})` : '(there are no profiles yet)'}`, hint ? { hint } : {});
}

export interface ProfileData {
  key?: string;
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
    if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) return `profiles.${name} is not an object`;
    const problem = profileProblem(`profiles.${name}`, profile as Record<string, unknown>);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * A stored setting gets the checks `cdata config set` gives it (settings.ts): a timeout above 0 up
 * to a day, a format by name in any case, a base URL cdata would accept. Only the key's own
 * characters are left to the command that sends it (a key that cannot be sent is exit 3 there).
 */
function profileProblem(at: string, profile: Record<string, unknown>): string | undefined {
  const { key, baseUrl, output, timeout, pager } = profile;
  if (key !== undefined && typeof key !== 'string') return `${at}.key is not a string`;
  if (baseUrl !== undefined) {
    if (typeof baseUrl !== 'string') return `${at}.baseUrl is not a string`;
    const refused = refusal(() => normaliseBaseUrl(baseUrl));
    if (refused) return `${at}.baseUrl is not a base URL cdata can use: ${refused}`;
  }
  if (output !== undefined && (typeof output !== 'string' || refusal(() => parseChoice(output, FORMATS, 'output')))) {
    return `${at}.output is not one of ${FORMATS.join(', ')} (got ${JSON.stringify(output)})`;
  }
  if (timeout !== undefined && (typeof timeout !== 'number' || refusal(() => parseSeconds('timeout', String(timeout), false)))) {
    return `${at}.timeout is not a number of seconds above 0 up to 86400, as \`config set timeout\` takes (got ${JSON.stringify(timeout)})`;
  }
  if (pager !== undefined && typeof pager !== 'string') return `${at}.pager is not a string (got ${JSON.stringify(pager)})`;
  return undefined;
}

/** What `check` throws, as text; undefined when it passes. */
function refusal(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
