// The settings `cdata config get|set|unset` reads and changes: each name, how a value is checked
// before it is stored, and how a stored value prints.
import { normaliseBaseUrl } from '../core/base-url.js';
import { UsageError, hintOf } from '../core/errors.js';
import { parseChoice, parseSeconds } from '../core/parse.js';
import { keyCommandProblem, looksLikeKey, shownKeyCommand } from './key.js';
import { FORMATS, SETTINGS, type ProfileData, type SettingName } from './schema.js';
import { didYouMean } from '../core/similar.js';

const NAMES = Object.keys(SETTINGS) as SettingName[];

export function parseSettingName(raw: string): SettingName {
  if ((NAMES as string[]).includes(raw)) return raw as SettingName;
  if (/^(api-?)?key$|^token$/i.test(raw)) {
    throw new UsageError(
      'the key is not a setting: store it with `cdata auth login` (it reads the key from stdin or a prompt)',
    );
  }
  throw new UsageError(
    `unknown setting ${JSON.stringify(raw)}: use one of ${NAMES.join(', ')}`,
    hintOf(didYouMean(raw, NAMES)),
  );
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
    case 'key-command':
      return parseKeyCommand(raw);
    case 'pager':
      // Any command sh can run; '' turns the pager off. Never a key: it would print as the setting.
      refuseKey(raw, 'a pager', "the pager's command, such as 'less -R'");
      return raw;
  }
}

/**
 * A key command as given (`config set key-command`, `auth login --key-command`): stored as typed,
 * run later by /bin/sh. A key typed in its place is refused without being echoed.
 */
export function parseKeyCommand(raw: string): string {
  refuseKey(raw, 'a command that prints one', "the command that prints the key, such as 'pass show cdata/prod'");
  const problem = keyCommandProblem(raw);
  if (problem) throw new UsageError(`not a key command: ${problem}`);
  return raw;
}

/** A key typed where a command goes is refused without being echoed (it would be stored, and shown). */
function refuseKey(raw: string, what: string, instead: string): void {
  if (!looksLikeKey(raw)) return;
  throw new UsageError(`that is an API key, not ${what}: the key is never taken on the command line`, {
    hint: `Give ${instead}. If that was a real key, it may now be in your shell history: consider revoking it.`,
  });
}

export function settingText(profile: ProfileData | undefined, name: SettingName): string | undefined {
  const value = profile?.[SETTINGS[name]];
  if (value === undefined) return undefined;
  return name === 'key-command' ? shownKeyCommand(String(value)) : String(value);
}
