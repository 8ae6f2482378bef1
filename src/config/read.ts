// Reading the config file: on every command's path, so a plain JSON read with no heavy imports
// (conf, which writes it, costs ~30 ms to load). A file that cannot be read or parsed is a
// configuration error naming the path and the cause; it is never cleared or rewritten. Read with a
// cap, and only when it is a regular file: a symlink to /dev/zero or a FIFO in its place would
// otherwise grow cdata without end or hang it (and `__complete profiles` runs at every Tab).
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
    if (errorCode(error) === 'ENOENT') return { path, exists: false, mode: undefined, data: { profiles: {} } };
    throw new UsageError(`cannot read the config file ${path}: ${errorMessage(error)}`, {
      hint: `The config file must be a regular file of at most ${describeBytes(MAX_CONFIG_BYTES)}; cdata never rewrites a file it cannot read.`,
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
  return { path, exists: true, mode, data: { ...config, profiles: config.profiles ?? {} } };
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

/** A warning when the file can be read by group or others, naming the fix. */
export function permissionWarning(config: LoadedConfig): string | undefined {
  if (config.mode === undefined || process.platform === 'win32' || (config.mode & 0o077) === 0) return undefined;
  return `the config file ${config.path} is readable by others (mode ${config.mode.toString(8).padStart(4, '0')}); it holds API keys: run chmod 600 '${config.path}'`;
}
