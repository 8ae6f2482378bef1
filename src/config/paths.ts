// Where the config file lives: CDATA_CONFIG_DIR, else $XDG_CONFIG_HOME/cdata, else ~/.config/cdata
// (%APPDATA%\cdata on Windows), as gh keeps ~/.config/gh.
import { join } from 'node:path';
import { envValue, type Env } from './env.js';

export const CONFIG_FILE_NAME = 'config.json';

export function configDir(env: Env): string {
  const explicit = envValue(env, 'CDATA_CONFIG_DIR');
  if (explicit) return explicit;
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg) return join(xdg, 'cdata');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'cdata');
  // node:os only where HOME is unset: loaded on every command otherwise, for nothing.
  return join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.config', 'cdata');
}

export function configPath(env: Env): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}
