// The one place settings are resolved: flag > environment > profile > default (PRODUCT.md
// section 2). Commands read Settings; nothing else looks at flags, env or the config file for them.
import { parseInteger } from '../commands/flags.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { envValue } from './env.js';
import { permissionWarning, readConfig, type LoadedConfig } from './read.js';
import { parseFormat, parseSeconds } from './values.js';
import { checkProfileName, DEFAULT_PROFILE, noProfileError, FORMATS, type Format, type ProfileData } from './schema.js';

/** Global options as commander parses them (strings until resolved here). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  output?: string;
  json?: boolean;
  fields?: string;
  header?: boolean;
  out?: string;
  bom?: boolean;
  timeout?: string;
  retries?: string;
  maxWait?: string;
  color?: string;
  quiet?: boolean;
  debug?: boolean;
  sandbox?: boolean;
}

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'sandbox';
export type ColorMode = 'auto' | 'always' | 'never';
export const COLOR_MODES: readonly ColorMode[] = ['auto', 'always', 'never'];

export interface Settings {
  config: LoadedConfig;
  profile: { name: string; source: Source; data: ProfileData | undefined };
  baseUrl: { value: string | undefined; source: Source };
  key: { value: string | undefined; source: Source };
  /** Undefined when neither a flag nor the profile chose one: the command picks table or tsv. */
  output: { value: Format | undefined; source: Source };
  timeoutSeconds: number;
  retries: number;
  maxWaitSeconds: number;
  color: ColorMode;
  quiet: boolean;
  debug: boolean;
}

export const DEFAULTS = { timeoutSeconds: 30, retries: 2, maxWaitSeconds: 30 } as const;

/** Where --sandbox points a command instead of the configured API. */
export interface SandboxTarget {
  url: string;
  key: string;
}

export function resolveSettings(options: GlobalOptions, io: Io, sandbox?: SandboxTarget): Settings {
  const config = readConfig(io.env);
  const warning = permissionWarning(config);
  if (warning && !options.quiet) io.stderr.write(`warning: ${warning}\n`);

  const profile = resolveProfile(options, io, config);
  const data = profile.data;
  return {
    config,
    profile,
    baseUrl: sandbox
      ? { value: sandbox.url, source: 'sandbox' }
      : pick([options.baseUrl, 'flag'], [envValue(io.env, 'CDATA_BASE_URL'), 'env'], [data?.baseUrl, 'profile']),
    key: sandbox
      ? { value: sandbox.key, source: 'sandbox' }
      : pick([envValue(io.env, 'CDATA_API_KEY'), 'env'], [data?.key, 'profile']),
    // The file's spelling may differ in case (`"JSON"`), as `config set` and -o accept it.
    output: pick([outputFlag(options), 'flag'], [data?.output === undefined ? undefined : parseFormat(data.output, FORMATS, 'output'), 'profile']),
    timeoutSeconds: options.timeout !== undefined ? parseSeconds('--timeout', options.timeout, false) : data?.timeout ?? DEFAULTS.timeoutSeconds,
    retries: options.retries !== undefined ? parseInteger('--retries', options.retries, 0, 10) : DEFAULTS.retries,
    maxWaitSeconds: options.maxWait !== undefined ? parseSeconds('--max-wait', options.maxWait, true) : DEFAULTS.maxWaitSeconds,
    color: colorMode(options.color),
    quiet: options.quiet ?? false,
    debug: options.debug === true || envValue(io.env, 'CDATA_DEBUG') === '1',
  };
}

function resolveProfile(options: GlobalOptions, io: Io, config: LoadedConfig): Settings['profile'] {
  const chosen = pick([options.profile, 'flag'], [envValue(io.env, 'CDATA_PROFILE'), 'env'], [config.data.defaultProfile, 'profile']);
  const name = checkProfileName(chosen.value ?? DEFAULT_PROFILE);
  return { name, source: chosen.value === undefined ? 'default' : chosen.source, data: Object.hasOwn(config.data.profiles, name) ? config.data.profiles[name] : undefined };
}

/**
 * A profile named explicitly (flag, CDATA_PROFILE or the marked default) that is not in the config
 * file is most likely a typo: a usage error for commands that call the API, unless nothing is
 * needed from it (the key and the base URL both come from flags or the environment).
 */
export function requireProfile(settings: Settings): void {
  const { profile, key, baseUrl } = settings;
  if (profile.data !== undefined || profile.source === 'default') return;
  const fromProfile = (source: Source) => source === 'profile' || source === 'default';
  if (!fromProfile(key.source) && !fromProfile(baseUrl.source)) return;
  throw noProfileError(profile.name, settings.config.data, `Create it with: echo "$KEY" | cdata auth login --profile ${profile.name} --base-url URL`);
}

function pick<T>(...candidates: [T | undefined, Source][]): { value: T | undefined; source: Source } {
  for (const [value, source] of candidates) if (value !== undefined) return { value, source };
  return { value: undefined, source: 'default' };
}

function outputFlag(options: GlobalOptions): Format | undefined {
  const output = options.output === undefined ? undefined : parseFormat(options.output, FORMATS, '--output');
  if (options.json && output !== undefined && output !== 'json') {
    throw new UsageError(`--json and --output ${output} disagree: use one of them`);
  }
  return options.json ? 'json' : output;
}

function colorMode(value: string | undefined): ColorMode {
  return value === undefined ? 'auto' : parseFormat(value, COLOR_MODES, '--color');
}
