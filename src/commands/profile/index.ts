// `cdata profile list | use NAME | remove NAME`.
import { maskKey, shownKeyCommand } from '../../config/key.js';
import {
  checkProfileName,
  DEFAULT_PROFILE,
  noProfileError,
  type ConfigData,
  type Format,
  type ProfileData,
} from '../../config/schema.js';
import { updateConfig } from '../../config/store.js';
import type { JsonObject } from '../../core/json-value.js';
import type { CommandContext, Handler } from '../../command-kit/command.js';
import type { PROFILE_NAME_ARGS } from './command.js';
import { PROFILE_LISTING } from '../../command-kit/local-views.js';

export const list: Handler = async (context) => {
  const { config } = context.settings();
  const output = context.output(PROFILE_LISTING);
  const { profiles } = config.data;
  // The profile a command uses when none is chosen: the one marked, else the one named `default`.
  const defaultProfile = config.data.defaultProfile ?? DEFAULT_PROFILE;
  const rows: JsonObject[] = Object.entries(profiles).map(([name, profile]) => ({
    name,
    // A mark a person reads in a table; true/false where a script reads it.
    default: output.format === 'table' ? (name === defaultProfile ? '*' : '') : name === defaultProfile,
    baseUrl: profile.baseUrl ?? null,
    key: keyText(profile, output.format),
    keyCommand: profile.keyCommand === undefined ? null : shownKeyCommand(profile.keyCommand),
    output: profile.output ?? null,
    timeout: profile.timeout ?? null,
  }));
  await output.print(rows);
  if (rows.length === 0 && output.format === 'table')
    context.note('No profiles yet: echo "$KEY" | cdata auth login --base-url URL creates one.');
};

/** The masked key; in a table, a profile whose key comes from a command says so (the command is its own field). */
function keyText(profile: ProfileData, format: Format): string | null {
  if (profile.key !== undefined) return maskKey(profile.key);
  return profile.keyCommand !== undefined && format === 'table' ? '(key command)' : null;
}

export const use: Handler<{}, typeof PROFILE_NAME_ARGS> = async (context) => {
  const name = profileArg(context);
  await updateConfig(context.io, (data) => {
    requireExisting(data, name);
    data.defaultProfile = name;
  });
  context.note(`Profile '${name}' is now the default.`);
  if (context.settings().profile.source === 'env')
    context.warn(`CDATA_PROFILE is set, and it wins over the default profile.`);
};

export const remove: Handler<{}, typeof PROFILE_NAME_ARGS> = async (context) => {
  const name = profileArg(context);
  const { held, wasDefault, fallback, left } = await updateConfig(context.io, (data) => {
    requireExisting(data, name);
    const profile = data.profiles[name];
    delete data.profiles[name];
    // What went with it, said as such: a profile may hold a key, a key command, or neither.
    const held =
      profile?.key !== undefined ? ' and its key' : profile?.keyCommand !== undefined ? ' and its key command' : '';
    const wasDefault = (data.defaultProfile ?? DEFAULT_PROFILE) === name;
    if (data.defaultProfile === name) delete data.defaultProfile;
    // Commands fall back to the profile named `default` when none is marked.
    const fallback = Object.hasOwn(data.profiles, DEFAULT_PROFILE);
    return { held, wasDefault, fallback, left: Object.keys(data.profiles).length };
  });
  const now = fallback
    ? ` Profile '${DEFAULT_PROFILE}' is the default now.`
    : left === 0
      ? ' No profile is left: cdata auth login makes one.'
      : ' No profile is the default now: choose one with cdata profile use NAME.';
  context.note(`Removed profile '${name}'${held}.${wasDefault ? now : ''}`);
};

/** The NAME argument, checked; settings are resolved too, so a config problem is reported once. */
function profileArg(context: CommandContext<{}, typeof PROFILE_NAME_ARGS>): string {
  context.settings();
  return checkProfileName(context.args[0]);
}

function requireExisting(data: ConfigData, name: string): void {
  if (!Object.hasOwn(data.profiles, name)) throw noProfileError(name, data);
}
