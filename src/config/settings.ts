// The settings `cdata config get|set|unset` reads and changes: each name, how a value is checked
// before it is stored, and how a stored value prints.
import { normaliseBaseUrl } from '../core/base-url.js';
import { UsageError } from '../core/errors.js';
import { parseChoice, parseSeconds } from '../core/parse.js';
import { FORMATS, SETTINGS, type ProfileData, type SettingName } from './schema.js';

const NAMES = Object.keys(SETTINGS) as SettingName[];

export function parseSettingName(raw: string): SettingName {
  if ((NAMES as string[]).includes(raw)) return raw as SettingName;
  if (/^(api-?)?key$|^token$/i.test(raw)) {
    throw new UsageError('the key is not a setting: store it with `cdata auth login` (it reads the key from stdin or a prompt)');
  }
  throw new UsageError(`unknown setting ${JSON.stringify(raw)}: use one of ${NAMES.join(', ')}`);
}

/** The value to store: a base URL normalised, a format in lower case, a timeout as a number. */
export function parseSettingValue(name: SettingName, raw: string): ProfileData[(typeof SETTINGS)[SettingName]] {
  switch (name) {
    case 'base-url':
      return normaliseBaseUrl(raw);
    case 'output':
      return parseChoice(raw, FORMATS, 'output');
    case 'timeout':
      return parseSeconds('timeout', raw, false);
    case 'pager':
      // Any command sh can run; '' turns the pager off.
      return raw;
  }
}

export function settingText(profile: ProfileData | undefined, name: SettingName): string | undefined {
  const value = profile?.[SETTINGS[name]];
  return value === undefined ? undefined : String(value);
}
