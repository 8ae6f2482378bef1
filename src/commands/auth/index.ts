// `cdata auth status` and `cdata auth logout` (login has its own file).
import { maskKey, redactKeys, shownKeyCommand } from '../../config/key.js';
import {
  loginCommand,
  noDefaultAmong,
  requireProfile,
  type KeySource,
  type Settings,
  type Source,
} from '../../config/resolve.js';
import { isJsonFormat, noProfileError } from '../../config/schema.js';
import { updateConfig } from '../../config/store.js';
import { AuthError, CliError } from '../../core/errors.js';
import { stringifyJson } from '../../core/json.js';
import { sanitize } from '../../core/sanitize.js';
import { fetchIdentity, type Identity } from '../shared/identity.js';
import type { Handler } from '../../command-kit/command.js';
import type { ApiContext } from '../shared/api.js';

interface Status {
  profile: string;
  profileSource: Source;
  profileExists: boolean;
  baseUrl: string | null;
  baseUrlSource: Source;
  key: string | null;
  keySource: KeySource;
  /** The profile's key command, also when CDATA_API_KEY wins over it. */
  keyCommand: string | null;
  /** Null when no folder can be named for it (no usable HOME, no home in the user database). */
  configFile: string | null;
  configFileExists: boolean;
  configFileMode: string | null;
  /** What /api/v1/me said, or null when it was not asked or could not say. */
  identity: Identity | null;
  error: { exitCode: number; message: string } | null;
}

/**
 * The local part first (it needs no network), then what /me says. Exit codes as everywhere: no
 * key or 401 is 3, network trouble 6, a missing base URL 2; a key without workspaces.read is
 * valid, so 0 with a note that identity cannot be shown.
 */
export const status: Handler = async (context) => {
  const settings = context.settings();
  const report = localStatus(settings);
  const json = isJsonFormat(settings.output.value);
  const out = context.io.stdout;
  let failure: unknown;
  const failed = (error: unknown) => {
    failure = error;
    const message = error instanceof Error ? error.message : String(error);
    // stdout is not redacted by cli.ts as its error messages are.
    report.error = {
      exitCode: error instanceof CliError ? error.exitCode : 1,
      message: redactKeys(message, context.errorStyle().secrets),
    };
  };
  // A key command runs first, so the key it printed shows (masked) with the rest; its failure is
  // reported as /me's would be, after the local part.
  if (settings.key.source === 'key-command') {
    try {
      const key = await context.apiKey();
      report.key = key === undefined ? null : maskKey(key);
    } catch (error) {
      failed(error);
    }
  }
  if (!json) out.write(localLines(report, settings));

  let noScope = false;
  if (!failure) {
    try {
      report.identity = await identity(context);
      noScope = report.identity === null;
    } catch (error) {
      failed(error);
    }
  }

  if (json) out.write(`${stringifyJson(report, settings.output.value === 'json' ? 2 : undefined)}\n`);
  else if (report.identity) out.write(identityLines(report.identity));
  else if (noScope) out.write(row('identity', 'not shown: the key lacks workspaces.read, which /api/v1/me needs'));
  if (failure) throw failure;
};

export const logout: Handler = async (context) => {
  const settings = context.settings();
  const name = settings.profile.name;
  const outcome = await updateConfig(context.io, (data) => {
    const profile = Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
    if (!profile) return 'no profile';
    const removed = profile.key !== undefined ? 'key' : profile.keyCommand !== undefined ? 'key command' : undefined;
    delete profile.key;
    delete profile.keyCommand;
    return removed ?? 'no key';
  });
  if (outcome === 'no profile') {
    if (settings.profile.source !== 'default') throw noProfileError(name, settings.config.data);
    // The implicit default may be absent: with no profile at all, nobody is logged in.
    const none = noDefaultAmong(settings);
    if (none) throw none;
  }
  context.note(
    outcome === 'no profile'
      ? 'No profile is logged in: nothing to remove.'
      : outcome === 'no key'
        ? `Profile '${name}' has no stored key or key command: nothing to remove.`
        : `Removed the ${outcome} of profile '${name}'; its base URL and settings stay (cdata profile remove ${name} removes those too).`,
  );
  if (settings.key.source === 'env')
    context.warn('CDATA_API_KEY is still set: commands keep using that key until you unset it.');
};

function localStatus(settings: Settings): Status {
  const { profile, baseUrl, key, config } = settings;
  return {
    profile: profile.name,
    profileSource: profile.source,
    profileExists: profile.data !== undefined,
    baseUrl: baseUrl.value ?? null,
    baseUrlSource: baseUrl.source,
    key: key.value === undefined ? null : maskKey(key.value),
    keySource: key.source,
    keyCommand: key.command === undefined ? null : shownKeyCommand(key.command),
    configFile: config.path ?? null,
    configFileExists: config.exists,
    configFileMode: config.mode === undefined ? null : config.mode.toString(8).padStart(4, '0'),
    identity: null,
    error: null,
  };
}

/** The key's identity, null when it lacks workspaces.read; no key, 401 or network trouble thrown. */
async function identity(context: ApiContext): Promise<Identity | null> {
  const settings = context.settings();
  const { key, profile, baseUrl } = settings;
  // A profile named with -p or CDATA_PROFILE that does not exist: a typo, exit 2 as for any command.
  requireProfile(settings);
  if (key.value === undefined && key.source !== 'key-command') {
    const login = `${loginCommand(settings)}${baseUrl.value === undefined ? ' --base-url URL' : ''}`;
    throw new AuthError(`not logged in: no API key for profile '${profile.name}'`, {
      hint: `Run \`echo "$KEY" | ${login}\`, or set CDATA_API_KEY.`,
    });
  }
  return fetchIdentity(context);
}

const SOURCES: { profile: Record<Source, string>; baseUrl: Record<Source, string>; key: Record<KeySource, string> } = {
  profile: {
    flag: 'from --profile',
    env: 'from CDATA_PROFILE',
    profile: 'the default profile',
    default: 'no default profile marked',
    sandbox: '--sandbox',
  },
  baseUrl: {
    flag: 'from --base-url',
    env: 'from CDATA_BASE_URL',
    profile: 'from the profile',
    default: 'not set',
    sandbox: '--sandbox',
  },
  key: {
    flag: 'from a flag',
    env: 'from CDATA_API_KEY',
    profile: 'from the profile',
    'key-command': "printed by the profile's key command",
    default: 'not set',
    sandbox: "--sandbox's demo key",
  },
};

function localLines(report: Status, settings: Settings): string {
  const stored = settings.profile.data;
  const keyNote =
    report.keySource === 'profile'
      ? '; stored in plain text in the config file'
      : report.keySource === 'key-command' && report.key === null
        ? ', which failed: see the error below'
        : report.keySource === 'env' && (stored?.key ?? stored?.keyCommand) !== undefined
          ? `, which wins over the profile's ${stored?.key !== undefined ? 'stored key' : 'key command'}`
          : '';
  return [
    row(
      'profile',
      `${report.profile} (${SOURCES.profile[report.profileSource]}${report.profileExists ? '' : '; not in the config file'})`,
    ),
    row('base URL', `${report.baseUrl ?? '-'} (${SOURCES.baseUrl[report.baseUrlSource]})`),
    row('key', `${report.key ?? '-'} (${SOURCES.key[report.keySource]}${keyNote})`),
    ...(report.keyCommand === null ? [] : [row('key command', report.keyCommand)]),
    row(
      'config file',
      report.configFile === null
        ? '- (no folder for it: set CDATA_CONFIG_DIR or HOME)'
        : `${report.configFile} (${report.configFileExists ? `mode ${report.configFileMode}` : 'not created yet'})`,
    ),
  ].join('');
}

function identityLines(identity: Identity): string {
  const list = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value ?? '-'));
  return [
    row('tenant', String(identity.tenant ?? '-')),
    row('key name', String(identity.displayName ?? '-')),
    row('roles', list(identity.roles)),
    row('scopes', list(identity.scopes)),
  ].join('');
}

/** One `label  value` line; every value is shown escaped (API text and config text alike). */
function row(label: string, value: string): string {
  return `${label.padEnd(12)} ${sanitize(value)}\n`;
}
