// The one place settings are resolved: flag > environment > profile > default
// (docs/keys-and-profiles.md). Commands read Settings; nothing else looks at flags, env or the config file for them.
import { fromVariable, UsageError } from '../core/errors.js';
import { sanitize } from '../core/sanitize.js';
import type { Io } from '../io/index.js';
import { envValue } from './env.js';
import {
  keyCommandToRun,
  permissionWarning,
  readConfig,
  storedPagerRuns,
  storedValue,
  type LoadedConfig,
} from './read.js';
import { parseChoice } from '../core/parse.js';
import {
  checkProfileName,
  DEFAULT_PROFILE,
  isJsonFormat,
  noProfileError,
  FORMATS,
  type Format,
  type ProfileData,
} from './schema.js';

/** What the global flags say (src/command-kit/globals.ts declares and parses them); undefined: not given. */
export interface SettingsFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  output?: Format | undefined;
  json?: boolean;
  timeout?: number | undefined;
  retries?: number | undefined;
  maxWait?: number | undefined;
  color?: ColorMode | undefined;
  quiet?: boolean;
  debug?: boolean;
  /** false: --no-pager. */
  pager?: boolean;
}

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'sandbox';
/** `key-command`: the profile's command prints the key when a request needs it (src/config/key-command.ts). */
export type KeySource = Source | 'key-command';
export type ColorMode = 'auto' | 'always' | 'never';
export const COLOR_MODES: readonly ColorMode[] = ['auto', 'always', 'never'];

export interface Settings {
  config: LoadedConfig;
  profile: { name: string; source: Source; data: ProfileData | undefined };
  baseUrl: { value: string | undefined; source: Source };
  /**
   * The key, when it is known without running anything. From a key command, `value` is undefined
   * and `command` is set (the profile's, also when CDATA_API_KEY wins): it runs only for a request.
   */
  key: { value: string | undefined; source: KeySource; command: string | undefined };
  /** Undefined when neither a flag nor the profile chose one: the command picks table or tsv. */
  output: { value: Format | undefined; source: Source };
  timeoutSeconds: number;
  /** Where timeoutSeconds came from (config list shows it). */
  timeoutSource: Source;
  retries: number;
  maxWaitSeconds: number;
  color: ColorMode;
  quiet: boolean;
  debug: boolean;
  /** The pager for data at a terminal: undefined for the default (less -FRX, when installed), '' for none. */
  pager: string | undefined;
  /** The profile's pager would have been used, but the config file is one others could change. */
  pagerRefused: boolean;
}

export const DEFAULTS = { timeoutSeconds: 30, retries: 2, maxWaitSeconds: 30 } as const;

/** Where --sandbox points a command instead of the configured API. */
export interface SandboxTarget {
  url: string;
  key: string;
}

/** `loaded`: the config file as already read (export --profiles reads it once for every profile). */
export function resolveSettings(
  options: SettingsFlags,
  io: Io,
  sandbox?: SandboxTarget,
  loaded?: LoadedConfig,
): Settings {
  const config = loaded ?? readConfig(io.env);
  const warning = loaded ? undefined : permissionWarning(config);
  if (warning && !options.quiet) io.stderr.write(`warning: ${sanitize(warning)}\n`);
  const debugAsked = envValue(io.env, 'CDATA_DEBUG');
  // CDATA_DEBUG=true or yes does nothing (1 alone turns the trace on): said, not passed over.
  if (!loaded && !options.quiet && !options.debug && debugAsked !== undefined && !['0', '1'].includes(debugAsked))
    io.stderr.write('warning: CDATA_DEBUG is set, but not to 1: no request trace (1 turns it on, 0 or unset off)\n');

  const profile = resolveProfile(options, io, config);
  const data = profile.data;
  // The profile's stored output and timeout are checked when read (storedValue), and only when
  // the flag does not decide: a bad one stops the commands that use it, not every command.
  const stored = <T extends string | number>(setting: 'output' | 'timeout', value: T | undefined) =>
    storedValue(config, profile.name, setting, value);
  // The profile's pager, unless the file is one others could change (the warning above says so):
  // none ('') and cat run nothing, and stay.
  const runsNothing = data?.pager === undefined || ['', 'cat'].includes(data.pager.trim());
  const storedPager = runsNothing || storedPagerRuns(config) ? data?.pager : undefined;
  return {
    config,
    profile,
    baseUrl: sandbox
      ? { value: sandbox.url, source: 'sandbox' }
      : pick([options.baseUrl, 'flag'], [envValue(io.env, 'CDATA_BASE_URL'), 'env'], [data?.baseUrl, 'profile']),
    key: { ...resolveKey(data, io, sandbox), command: data?.keyCommand },
    get output() {
      const flag = outputFlag(options);
      // The file's spelling may differ in case (`"JSON"`), as `config set` and -o accept it.
      const fromProfile = flag === undefined ? stored('output', data?.output) : undefined;
      return pick(
        [flag, 'flag'],
        [fromProfile === undefined ? undefined : parseChoice(fromProfile, FORMATS, 'output'), 'profile'],
      );
    },
    get timeoutSeconds() {
      return options.timeout ?? stored('timeout', data?.timeout) ?? DEFAULTS.timeoutSeconds;
    },
    timeoutSource: options.timeout !== undefined ? 'flag' : data?.timeout !== undefined ? 'profile' : 'default',
    retries: options.retries ?? DEFAULTS.retries,
    maxWaitSeconds: options.maxWait ?? DEFAULTS.maxWaitSeconds,
    color: options.color ?? 'auto',
    quiet: options.quiet ?? false,
    debug: options.debug === true || debugAsked === '1',
    // As git reads GIT_PAGER, core.pager and PAGER: the specific before the general, and a
    // variable set but empty means no pager (not unset, as elsewhere).
    pager: options.pager === false ? '' : (io.env.CDATA_PAGER ?? storedPager ?? io.env.PAGER),
    pagerRefused: storedPager !== data?.pager && io.env.CDATA_PAGER === undefined && options.pager !== false,
  };
}

function resolveKey(
  data: ProfileData | undefined,
  io: Io,
  sandbox: SandboxTarget | undefined,
): { value: string | undefined; source: KeySource } {
  if (sandbox) return { value: sandbox.key, source: 'sandbox' };
  const key = pick([envValue(io.env, 'CDATA_API_KEY'), 'env'], [data?.key, 'profile']);
  // A profile holds a key or a command, never both (schema.ts).
  return key.value === undefined && data?.keyCommand !== undefined ? { value: undefined, source: 'key-command' } : key;
}

/**
 * The command that stores a key in the profile these settings use, for hints: `--profile` named
 * when a flag or CDATA_PROFILE chose it, as `cdata auth login` alone would store it elsewhere;
 * `--base-url` when the flag gave it, as login stores the base URL with the key and would not
 * find one without it.
 */
export function loginCommand(settings: Pick<Settings, 'profile' | 'baseUrl'>): string {
  const { baseUrl } = settings;
  return `cdata auth login${profileFlag(settings)}${baseUrl.source === 'flag' ? ` --base-url ${baseUrl.value}` : ''}`;
}

/**
 * ` --profile NAME` when -p or CDATA_PROFILE chose the profile, for a command a hint gives: run
 * as shown, it acts on that profile, not the default one. Else nothing.
 */
export function profileFlag({ profile }: Pick<Settings, 'profile'>): string {
  return profile.source === 'flag' || profile.source === 'env' ? ` --profile ${profile.name}` : '';
}

function resolveProfile(options: SettingsFlags, io: Io, config: LoadedConfig): Settings['profile'] {
  const chosen = pick(
    [options.profile, 'flag'],
    [envValue(io.env, 'CDATA_PROFILE'), 'env'],
    [config.data.defaultProfile, 'profile'],
  );
  const name = fromVariable(chosen.source === 'env' ? 'CDATA_PROFILE' : undefined, () =>
    checkProfileName(chosen.value ?? DEFAULT_PROFILE),
  );
  return {
    name,
    source: chosen.source,
    data: Object.hasOwn(config.data.profiles, name) ? config.data.profiles[name] : undefined,
  };
}

/**
 * Whether the profile a command would use stores `output json` or `ndjson`, read alone (nothing
 * else resolved, nothing said): the style of an error found before the settings were read. False
 * when the config or the profile flag cannot be read: their own errors come in their turn.
 */
export function storedJsonOutput(options: Pick<SettingsFlags, 'profile'>, io: Io): boolean {
  try {
    const config = readConfig(io.env);
    const output = resolveProfile(options, io, config).data?.output;
    return typeof output === 'string' && isJsonFormat(output);
  } catch {
    return false;
  }
}

/**
 * The key to send: the one the settings resolved to, or the one the profile's key command prints
 * (checked first: never run from a config file someone else could change), run at each call, so
 * the caller keeps it and counts it among its secrets.
 */
export async function keyToSend(settings: Settings, io: Io): Promise<string | undefined> {
  const { key, profile, debug } = settings;
  if (key.source !== 'key-command' || key.command === undefined) return key.value;
  keyCommandToRun(settings.config, profile.name, key.command);
  const { runKeyCommand } = await import('./key-command.js');
  return runKeyCommand({ command: key.command, profile: profile.name, io, debug });
}

/**
 * A profile named explicitly (flag, CDATA_PROFILE or the marked default) that is not in the config
 * file is most likely a typo: a usage error for commands that call the API, unless nothing is
 * needed from it (the key and the base URL both come from flags or the environment). So is the
 * implicit `default` missing beside other profiles: none is marked, and one must be chosen.
 */
export function requireProfile(settings: Settings): void {
  const { profile, key, baseUrl } = settings;
  if (profile.data !== undefined) return;
  // With no such profile nothing came from it: what it would have given is missing ('default').
  if (key.source !== 'default' && baseUrl.source !== 'default') return;
  if (profile.source === 'default') {
    const none = noDefaultAmong(settings);
    if (none) throw none;
    return;
  }
  throw noProfileError(
    profile.name,
    settings.config.data,
    `Create it with: echo "$KEY" | cdata auth login --profile ${profile.name} --base-url URL`,
  );
}

/**
 * The implicit `default` profile absent beside other profiles (the marked default removed): none
 * is the default, and which one to use is the user's to say. Undefined when the profile exists,
 * was named, or there is no profile at all (a first run: what is missing says what to do).
 */
export function noDefaultAmong({ profile, config }: Pick<Settings, 'profile' | 'config'>): UsageError | undefined {
  if (profile.data !== undefined || profile.source !== 'default') return undefined;
  const names = Object.keys(config.data.profiles);
  if (names.length === 0) return undefined;
  return new UsageError(`no profile is the default (profiles: ${names.join(', ')})`, {
    hint: 'Choose one with `cdata profile use NAME`, or name one with --profile NAME or CDATA_PROFILE.',
  });
}

function pick<T>(...candidates: [T | undefined, Source][]): { value: T | undefined; source: Source } {
  for (const [value, source] of candidates) if (value !== undefined) return { value, source };
  return { value: undefined, source: 'default' };
}

function outputFlag(options: SettingsFlags): Format | undefined {
  const { output } = options;
  if (options.json && output !== undefined && output !== 'json') {
    throw new UsageError(`--json and --output ${output} disagree: use one of them`);
  }
  return options.json ? 'json' : output;
}
