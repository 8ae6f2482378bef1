// Every setting of the profile in use (schema.ts SETTINGS, whoever adds one), with its value and
// where the value came from, as resolve.ts resolved it: flag > env > profile > default. For
// `cdata config list`.
import type { Settings, Source } from './resolve.js';
import { SETTINGS, type SettingName } from './schema.js';
import { settingText } from './settings.js';

export interface SettingRow {
  setting: SettingName;
  /** As resolved; null when nothing sets it (no base URL; the output format, then chosen per run). */
  value: string | number | null;
  source: Source;
}

type Resolved = { value: string | number | undefined; source: Source };

/**
 * The settings whose value more than the profile decides (a flag, the environment, a default).
 * A setting without an entry shows the profile's value, or none.
 */
const RESOLVED: Partial<Record<SettingName, (settings: Settings) => Resolved>> = {
  'base-url': (settings) => settings.baseUrl,
  output: (settings) => settings.output,
  timeout: (settings) => ({ value: settings.timeoutSeconds, source: settings.timeoutSource }),
};

export function settingRows(settings: Settings): SettingRow[] {
  return (Object.keys(SETTINGS) as SettingName[]).map((setting) => {
    const { value, source } = RESOLVED[setting]?.(settings) ?? stored(settings, setting);
    return { setting, value: value ?? null, source };
  });
}

/** As `config get` shows it (a key pasted as a key command stays masked). */
function stored(settings: Settings, setting: SettingName): Resolved {
  const value = settingText(settings.profile.data, setting);
  return value === undefined ? { value: undefined, source: 'default' } : { value, source: 'profile' };
}
