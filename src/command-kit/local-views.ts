// What the commands that print local data (not the API's) print, declared with the commands as
// the endpoints' views are: help shows these commands the output options, completions offer
// their fields after --fields, and the handlers print through them (every format, --fields and
// --no-header work as for the API's data).
import type { View } from '../core/endpoints.js';

type Kind = 'string' | 'integer' | 'number';

function localView(
  name: string,
  shape: View['shape'],
  fields: [string, Kind][],
  extra: Pick<View, 'columns' | 'key'> | {} = {},
): View {
  return {
    name,
    shape,
    fields: fields.map(([field, kind]) => ({ name: field, type: { kind } })),
    columns: fields.map(([field]) => field),
    ...extra,
  };
}

/** `cdata profile list`. */
export const PROFILE_LISTING = localView(
  'profiles',
  'list',
  [
    ['name', 'string'],
    ['default', 'string'],
    ['baseUrl', 'string'],
    ['key', 'string'],
    ['keyCommand', 'string'],
    ['output', 'string'],
    ['timeout', 'number'],
  ],
  { columns: ['name', 'default', 'baseUrl', 'key'], key: 'name' },
);

/** `cdata config list`: each setting's value (a string or a number) and where it came from. */
export const SETTINGS_LISTING = localView(
  'settings',
  'list',
  [
    ['setting', 'string'],
    ['value', 'string'],
    ['source', 'string'],
  ],
  { key: 'setting' },
);

/** `cdata webhook check`. */
export const CHECK_RESULTS = localView('check results', 'list', [
  ['case', 'string'],
  ['expected', 'string'],
  ['got', 'string'],
  ['ms', 'integer'],
  ['pass', 'string'],
]);

/** `cdata webhook ping`. */
export const PING_ANSWER = localView('ping answer', 'object', [
  ['status', 'integer'],
  ['statusText', 'string'],
  ['location', 'string'],
  ['ms', 'integer'],
]);
