// `cdata auth status` and `cdata auth logout` (login has its own file).
import { maskKey, redactKeys } from '../config/key.js';
import type { Settings, Source } from '../config/resolve.js';
import { noProfileError } from '../config/schema.js';
import { updateConfig } from '../config/store.js';
import { AuthError, CliError } from '../core/errors.js';
import { stringifyJson } from '../core/json.js';
import { sanitize } from '../core/sanitize.js';
import { fetchIdentity, type Identity } from './identity.js';
import type { Handler } from '../spec/command.js';
import type { ApiContext } from './api.js';

export { login } from './login.js';

interface Status {
  profile: string;
  profileSource: Source;
  profileExists: boolean;
  baseUrl: string | null;
  baseUrlSource: Source;
  key: string | null;
  keySource: Source;
  configFile: string;
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
  const json = settings.output.value === 'json' || settings.output.value === 'ndjson';
  const out = context.io.stdout;
  if (!json) out.write(localLines(report, settings));

  let failure: unknown;
  let noScope = false;
  try {
    report.identity = await identity(context);
    noScope = report.identity === null;
  } catch (error) {
    failure = error;
    const message = error instanceof Error ? error.message : String(error);
    // stdout is not redacted by cli.ts as its error messages are.
    const key = settings.key.value;
    report.error = { exitCode: error instanceof CliError ? error.exitCode : 1, message: redactKeys(message, key ? [key] : []) };
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
    if (profile.key === undefined) return 'no key';
    delete profile.key;
    return 'removed';
  });
  if (outcome === 'no profile') throw noProfileError(name, settings.config.data);
  context.note(
    outcome === 'removed'
      ? `Removed the key of profile '${name}'; its base URL and settings stay (cdata profile remove ${name} removes those too).`
      : `Profile '${name}' has no stored key: nothing to remove.`,
  );
  if (settings.key.source === 'env') context.warn('CDATA_API_KEY is still set: commands keep using that key until you unset it.');
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
    configFile: config.path,
    configFileExists: config.exists,
    configFileMode: config.mode === undefined ? null : config.mode.toString(8).padStart(4, '0'),
    identity: null,
    error: null,
  };
}

/** The key's identity, null when it lacks workspaces.read; no key, 401 or network trouble thrown. */
async function identity(context: ApiContext): Promise<Identity | null> {
  const { key, profile } = context.settings();
  if (key.value === undefined) {
    throw new AuthError(`not logged in: no API key for profile '${profile.name}'`, {
      hint: 'Run `echo "$KEY" | cdata auth login --base-url URL`, or set CDATA_API_KEY.',
    });
  }
  return fetchIdentity(context);
}

const SOURCES: Record<'profile' | 'baseUrl' | 'key', Record<Source, string>> = {
  profile: { flag: 'from --profile', env: 'from CDATA_PROFILE', profile: 'the default profile', default: 'no default profile marked', sandbox: '--sandbox' },
  baseUrl: { flag: 'from --base-url', env: 'from CDATA_BASE_URL', profile: 'from the profile', default: 'not set', sandbox: '--sandbox' },
  key: { flag: 'from a flag', env: 'from CDATA_API_KEY', profile: 'from the profile', default: 'not set', sandbox: "--sandbox's demo key" },
};

function localLines(report: Status, settings: Settings): string {
  const storedKey = settings.profile.data?.key !== undefined;
  const keyNote =
    report.keySource === 'profile'
      ? '; stored in plain text in the config file'
      : report.keySource === 'env' && storedKey
        ? ", which wins over the profile's stored key"
        : '';
  return [
    row('profile', `${report.profile} (${SOURCES.profile[report.profileSource]}${report.profileExists ? '' : '; not in the config file'})`),
    row('base URL', `${report.baseUrl ?? '-'} (${SOURCES.baseUrl[report.baseUrlSource]})`),
    row('key', `${report.key ?? '-'} (${SOURCES.key[report.keySource]}${keyNote})`),
    row('config file', `${report.configFile} (${report.configFileExists ? `mode ${report.configFileMode}` : 'not created yet'})`),
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
