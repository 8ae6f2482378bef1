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
  return join(env.HOME && isAbsolute(env.HOME) ? env.HOME : accountHome(), '.config', 'cdata');
}

/**
 * The home folder of the account, from the user database (os.homedir() would give back an empty
 * HOME). node:os only here, where HOME is unset or unusable: loaded on every command otherwise,
 * for nothing.
 */
function accountHome(): string {
  const os = process.getBuiltinModule('node:os');
  try {
    return os.userInfo().homedir;
  } catch {
    return os.homedir();
  }
}

export function configPath(env: Env): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}
