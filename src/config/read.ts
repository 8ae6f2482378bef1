// Reading the config file: on every command's path, so a plain JSON read with no heavy imports
// (conf, which writes it, costs ~30 ms to load). A file that cannot be read or parsed is a
// configuration error naming the path and the cause; it is never cleared or rewritten. Read with a
// cap, and only when it is a regular file: a symlink to /dev/zero or a FIFO in its place would
// otherwise grow cdata without end or hang it (and `__complete profiles` runs at every Tab).
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCode, errorMessage, UsageError } from '../core/errors.js';
import { describeBytes, readRegularFile } from '../io/read-file.js';
import type { Env } from './env.js';
import { configPath } from './paths.js';
import { configProblem, storedValueProblem, type ConfigData, type StoredSetting } from './schema.js';

export interface LoadedConfig {
  path: string;
  /** False when no config file exists yet. */
  exists: boolean;
  /** Permission bits of the file (e.g. 0o600), when it exists. */
  mode: number | undefined;
  /** Permission bits of its folder, sticky bit included (0o700; /tmp's 0o1777), when the file exists. */
  folderMode?: number | undefined;
  data: ConfigData;
}

/** A few profiles take a few hundred bytes; this is a thousand times more. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export function readConfig(env: Env): LoadedConfig {
  const path = configPath(env);
  let text: string;
  let mode: number;
  try {
    const { bytes, stats } = readRegularFile(path, MAX_CONFIG_BYTES);
    text = bytes.toString('utf8');
    mode = stats.mode & 0o777;
  } catch (error) {
    const code = errorCode(error);
    // A link leading nowhere is a file the user meant to have, not "no config yet".
    const link = code === 'ENOENT' && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink();
    if (code === 'ENOENT' && !link) return { path, exists: false, mode: undefined, data: { profiles: {} } };
    const why = link ? `it is a link to ${readlinkSync(path)}, which does not exist` : errorMessage(error);
    throw new UsageError(`cannot read the config file ${path}: ${why}`, {
      hint: link
        ? 'Point the link at the config file, or remove the link: cdata then writes a new file there when a setting is saved.'
        : code === 'EACCES' || code === 'EPERM'
          ? `cdata may not read it: check its owner and mode (ls -l '${path}'); it is written 0600 for the user who runs cdata.`
          : `The config file must be a regular file of at most ${describeBytes(MAX_CONFIG_BYTES)}; cdata never rewrites a file it cannot read.`,
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the config file ${path} is not valid JSON: ${errorMessage(error)}`, {
      hint: 'Fix or move the file; cdata never rewrites a file it cannot read.',
      cause: error,
    });
  }
  const problem = configProblem(data);
  if (problem) throw invalidConfig(path, problem);
  const config = data as ConfigData;
  const folderMode = statSync(dirname(path), { throwIfNoEntry: false })?.mode;
  return {
    path,
    exists: true,
    mode,
    folderMode: folderMode === undefined ? undefined : folderMode & 0o1777,
    data: { ...config, profiles: config.profiles ?? {} },
  };
}

/** The error for a config file (at `path`) that cdata will not use as it is. */
export function invalidConfig(path: string, problem: string): UsageError {
  return new UsageError(`the config file ${path} is not valid: ${problem}`, {
    hint: 'Fix or move the file; cdata never rewrites a file it cannot read.',
  });
}

/**
 * A stored setting of the profile in use, checked as `config set` checks it (schema.ts), at the
 * moment it is used: undefined when the profile does not hold it.
 */
export function storedValue<T extends string | number>(
  config: LoadedConfig,
  profile: string,
  setting: StoredSetting,
  value: T | undefined,
): T | undefined {
  if (value === undefined) return undefined;
  const problem = storedValueProblem(`profiles.${profile}`, setting, value);
  if (problem) throw invalidConfig(config.path, problem);
  return value;
}

/**
 * A warning when group or others can read the file (it holds keys), or write it or replace it
 * (then they choose where the keys go and what key commands run): what is open, and the fix.
 */
export function permissionWarning(config: LoadedConfig): string | undefined {
  const { path, mode } = config;
  if (mode === undefined || process.platform === 'win32') return undefined;
  const open = [(mode & 0o044) !== 0 && 'readable', (mode & 0o022) !== 0 && 'writable'].filter(Boolean).join(' and ');
  if (open !== '')
    return `the config file ${path} is ${open} by others (mode ${octal(mode)}); it holds API keys${(mode & 0o022) !== 0 ? ', and whoever can write it chooses where they go and what key commands run' : ''}: run chmod 600 '${path}'`;
  if (folderOpen(config))
    return `the config folder ${dirname(path)} is writable by others (mode ${octal(config.folderMode! & 0o777)}): whoever can write it can replace the config file, and choose where your keys go and what key commands run: run chmod 700 '${dirname(path)}'`;
  return undefined;
}

/**
 * A profile's key command, checked as `config set` checks it, and never run from a file that
 * others can write or replace: whoever can, could choose what runs as you.
 */
export function keyCommandToRun(config: LoadedConfig, profile: string, command: string): string {
  storedValue(config, profile, 'keyCommand', command);
  const fileOpen = config.mode !== undefined && (config.mode & 0o022) !== 0;
  if (process.platform !== 'win32' && (fileOpen || folderOpen(config))) {
    const [what, where, fix] = fileOpen
      ? ['file', config.path, `chmod 600 '${config.path}'`]
      : ['folder', dirname(config.path), `chmod 700 '${dirname(config.path)}'`];
    throw new UsageError(
      `the config ${what} ${where} is writable by others: cdata runs no key command from it (profile '${profile}'), as whoever can write it could choose what runs as you`,
      { hint: `Run ${fix}, then try again.` },
    );
  }
  return command;
}

/** The folder is writable by group or others, and without the sticky bit that stops them replacing a file of yours. */
function folderOpen({ folderMode }: LoadedConfig): boolean {
  return folderMode !== undefined && (folderMode & 0o022) !== 0 && (folderMode & 0o1000) === 0;
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');
