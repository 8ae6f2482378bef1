// Where the config file lives: CDATA_CONFIG_DIR, else $XDG_CONFIG_HOME/cdata, else ~/.config/cdata
// (%APPDATA%\cdata on Windows), as gh keeps ~/.config/gh.
import { isAbsolute, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { envValue, type Env } from './env.js';

export const CONFIG_FILE_NAME = 'config.json';

export function configDir(env: Env): string {
  const explicit = envValue(env, 'CDATA_CONFIG_DIR');
  // Blank, it would be a folder named by spaces in whatever folder the command runs from.
  if (explicit?.trim() === '')
    throw new UsageError('CDATA_CONFIG_DIR is blank: set it to the folder that holds the config, or unset it');
  if (explicit) return explicit;
  // A relative XDG_CONFIG_HOME is invalid and ignored (the XDG spec), as is a relative HOME: either
  // would put the keys in whatever folder the command runs from.
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'cdata');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'cdata');
  return join(env.HOME && isAbsolute(env.HOME) ? env.HOME : accountHome(env), '.config', 'cdata');
}

/**
 * No folder for the config can be named: HOME unset or relative, and the account has no home in
 * the user database (a container run as a uid of its own). Reading finds no config then; writing
 * one is this error, exit 2.
 */
export class NoConfigHome extends UsageError {}

/**
 * The home folder of the account, from the user database (os.homedir() would give back HOME
 * as it is, relative or empty). node:os only here, where HOME is unset or unusable: loaded on
 * every command otherwise, for nothing.
 */
function accountHome(env: Env): string {
  let home: string | undefined;
  try {
    home = process.getBuiltinModule('node:os').userInfo().homedir;
  } catch {
    // No entry for this uid.
  }
  if (home && isAbsolute(home)) return home;
  throw new NoConfigHome(
    `no folder for the config file: HOME is ${env.HOME ? 'not an absolute path' : 'unset'}, and user ${process.getuid?.() ?? '?'} has no home folder in the user database`,
    { hint: 'Set CDATA_CONFIG_DIR to the folder that holds (or is to hold) the config, or set HOME.' },
  );
}

export function configPath(env: Env): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}
