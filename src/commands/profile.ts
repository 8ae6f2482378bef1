// `cdata profile list | use NAME | remove NAME`.
import { maskKey } from '../config/key.js';
import { checkProfileName, noProfileError, type ConfigData } from '../config/schema.js';
import { updateConfig } from '../config/store.js';
import type { Endpoint } from '../endpoints.js';
import type { JsonObject } from '../json.js';
import { colorLevel } from '../output/color.js';
import { render } from '../output/render.js';
import { writeOutput } from '../output/sink.js';
import { parseFields } from './flags.js';
import { outputFormat } from '../output/format.js';
import type { CommandContext, Handler } from './spec.js';

/**
 * The listing described as an endpoint's list is, so every output format, --fields and
 * --no-header work as they do for the API's lists. Only `fields` and `columns` matter here.
 */
const LISTING: Endpoint = {
  name: 'profiles',
  aliases: [],
  path: '(local: the config file)',
  scope: 'workspaces.read',
  shape: 'list',
  summary: 'profiles in the config file',
  params: [],
  fields: [
    { name: 'name', type: { kind: 'string' } },
    { name: 'default', type: { kind: 'string' } },
    { name: 'baseUrl', type: { kind: 'string' } },
    { name: 'key', type: { kind: 'string' } },
    { name: 'output', type: { kind: 'string' } },
    { name: 'timeout', type: { kind: 'number' } },
  ],
  columns: ['name', 'default', 'baseUrl', 'key'],
};

export const list: Handler = async (context) => {
  const { config } = context.settings();
  const format = outputFormat(context);
  const fields = parseFields(LISTING, context.options.fields);
  const { defaultProfile, profiles } = config.data;
  const rows: JsonObject[] = Object.entries(profiles).map(([name, profile]) => ({
    name,
    // A mark a person reads in a table; true/false where a script reads it.
    default: format === 'table' ? (name === defaultProfile ? '*' : '') : name === defaultProfile,
    baseUrl: profile.baseUrl ?? null,
    key: profile.key === undefined ? null : maskKey(profile.key),
    output: profile.output ?? null,
    timeout: profile.timeout ?? null,
  }));
  const { io, options } = context;
  const text = await render({
    endpoint: LISTING,
    data: rows,
    format,
    fields,
    header: options.header !== false,
    bom: options.bom === true,
    color: options.out === undefined ? colorLevel(io.stdout, context.settings().color, io.env) : 0,
    width: undefined,
  });
  await writeOutput(context, text);
  if (rows.length === 0 && format === 'table') context.note('No profiles yet: echo "$KEY" | cdata auth login --base-url URL creates one.');
};

export const use: Handler = async (context) => {
  const name = profileArg(context);
  await updateConfig(context.io, (data) => {
    requireExisting(data, name);
    data.defaultProfile = name;
  });
  context.note(`Profile '${name}' is now the default.`);
  if (context.settings().profile.source === 'env') context.warn(`CDATA_PROFILE is set, and it wins over the default profile.`);
};

export const remove: Handler = async (context) => {
  const name = profileArg(context);
  const wasDefault = await updateConfig(context.io, (data) => {
    requireExisting(data, name);
    delete data.profiles[name];
    if (data.defaultProfile !== name) return false;
    delete data.defaultProfile;
    return true;
  });
  context.note(
    wasDefault
      ? `Removed profile '${name}' and its key. No profile is the default now: choose one with cdata profile use NAME.`
      : `Removed profile '${name}' and its key.`,
  );
};

/** The NAME argument, checked; settings are resolved too, so a config problem is reported once. */
function profileArg(context: CommandContext): string {
  context.settings();
  return checkProfileName(String(context.args[0] ?? ''));
}

function requireExisting(data: ConfigData, name: string): void {
  if (!Object.hasOwn(data.profiles, name)) throw noProfileError(name, data);
}
