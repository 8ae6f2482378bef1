// `cdata config list`, `cdata config get|set|unset KEY [VALUE]` on the profile in use, and
// `cdata config path`.
import { settingRows } from '../../config/listing.js';
import { configPath } from '../../config/paths.js';
import { DEFAULTS, noDefaultAmong, type Settings, type Source } from '../../config/resolve.js';
import { noProfileError, SETTINGS, type SettingName } from '../../config/schema.js';
import { parseSettingName, parseSettingValue, settingText } from '../../config/settings.js';
import { profileIn, updateConfig } from '../../config/store.js';
import { warningForNewFile } from '../../config/read.js';
import { UsageError } from '../../core/errors.js';
import { isSlipOf } from '../../core/similar.js';
import type { CommandContext, Handler } from '../../command-kit/command.js';
import type { SET_ARGS, SETTING_ARGS } from './command.js';
import { SETTINGS_LISTING } from '../../command-kit/local-views.js';

/** Every setting with its value and source, in any format; the profile is said on a terminal. */
export const list: Handler = async (context) => {
  const output = context.output(SETTINGS_LISTING);
  const settings = context.settings();
  const profile = existingProfile(settings);
  await output.print(settingRows(settings).map((row) => ({ ...row })));
  if (output.format === 'table') context.note(`Profile '${profile.name}'${CHOSEN_BY[profile.source]}.`);
};

const CHOSEN_BY: Record<Source, string> = {
  flag: ', chosen with -p',
  env: ', chosen with CDATA_PROFILE',
  profile: ', the default profile',
  default: '',
  sandbox: '',
};

/** Prints the stored value; nothing (and a note) when it is not set, which is not an error. */
export const get: Handler<{}, typeof SETTING_ARGS> = async (context) => {
  const name = parseSettingName(context.args[0]);
  const settings = context.settings();
  const profile = existingProfile(settings);
  const value = settingText(profile.data, name);
  if (value !== undefined) context.io.stdout.write(`${value}\n`);
  else context.note(`${name} is not set in profile '${profile.name}'${DEFAULT_TEXT[name] ?? ''}.`);
};

const DEFAULT_TEXT: Partial<Record<SettingName, string>> = {
  timeout: ` (default: ${DEFAULTS.timeoutSeconds} s)`,
  pager: ' (default: PAGER, else less -FRX)',
};

/** Stores a checked value, creating the profile when it does not exist yet. */
export const set: Handler<{}, typeof SET_ARGS> = async (context) => {
  const name = parseSettingName(context.args[0]);
  const value = parseSettingValue(name, context.args[1]);
  const settings = context.settings();
  const profile = settings.profile.name;
  // Beside other profiles, a `default` made here would quietly become the one commands use.
  const none = noDefaultAmong(settings);
  if (none) throw none;
  const created = await updateConfig(context.io, (data) => {
    const others = Object.keys(data.profiles);
    const existed = others.includes(profile);
    const stored = profileIn(data, profile);
    if (name === 'key-command' && stored.key !== undefined) throw keyStoredAlready(profile);
    Object.assign(stored, { [SETTINGS[name]]: value });
    return existed ? undefined : others;
  });
  const exposed = warningForNewFile(settings.config, context.io.env);
  if (exposed) context.warn(exposed);
  if (created) {
    context.note(`Created profile '${profile}'.`);
    // `-p prdo config set ...`: every other command refuses a typo of a profile; this one makes it.
    const near = created.filter((name) => isSlipOf(profile, name));
    if (near.length > 0)
      context.warn(
        `'${profile}' is close to ${near.map((n) => `'${n}'`).join(', ')}: if that was meant, \`cdata profile remove ${profile}\` undoes this`,
      );
  }
  if (name === 'key-command')
    context.note('Stored without running it: cdata auth status runs it and checks the key it prints.');
  warnIfOverridden(context, name);
};

/**
 * A profile holds a key or a key command, never both. Replacing a working key with a command
 * nobody has run could lose the only copy of the key: auth login --key-command checks it first.
 */
function keyStoredAlready(profile: string): UsageError {
  return new UsageError(`profile '${profile}' holds a stored key; a profile holds a key or a key command, not both`, {
    hint: `cdata auth login --profile ${profile} --key-command CMD replaces the key once CMD has printed a key the API accepts (or cdata auth logout --profile ${profile} removes the key first).`,
  });
}

export const unset: Handler<{}, typeof SETTING_ARGS> = async (context) => {
  const name = parseSettingName(context.args[0]);
  const settings = context.settings();
  const profile = existingProfile(settings).name;
  const removed = await updateConfig(context.io, (data) => {
    const stored = Object.hasOwn(data.profiles, profile) ? data.profiles[profile] : undefined;
    if (stored?.[SETTINGS[name]] === undefined) return false;
    delete stored[SETTINGS[name]];
    return true;
  });
  if (!removed) context.note(`${name} was not set in profile '${profile}'.`);
};

/** Needs no config file, and works when the file is corrupt: that is when its path is wanted. */
export const path: Handler = async (context) => {
  context.io.stdout.write(`${configPath(context.io.env)}\n`);
};

/**
 * The profile in use; one named explicitly must exist. The implicit `default` may be absent while
 * there is no profile at all, not beside others (none is then the default: which one is asked).
 */
function existingProfile(settings: Settings): Settings['profile'] {
  const { profile } = settings;
  if (profile.data === undefined && profile.source !== 'default')
    throw noProfileError(profile.name, settings.config.data);
  const none = noDefaultAmong(settings);
  if (none) throw none;
  return profile;
}

function warnIfOverridden(context: Pick<CommandContext, 'io' | 'settings' | 'warn'>, name: SettingName): void {
  const settings = context.settings();
  if (name === 'base-url' && settings.baseUrl.source === 'env') {
    context.warn('CDATA_BASE_URL is set, and it wins over the stored base URL until you unset it.');
  }
  if (name === 'key-command' && settings.key.source === 'env') {
    context.warn('CDATA_API_KEY is set, and it wins over the key command until you unset it.');
  }
  if (name === 'pager' && context.io.env.CDATA_PAGER !== undefined) {
    context.warn('CDATA_PAGER is set, and it wins over the stored pager until you unset it.');
  }
}
