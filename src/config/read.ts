// Reading the config file: on every command's path, so a plain JSON read with no heavy imports
// (conf, which writes it, costs ~30 ms to load). A file that cannot be read or parsed is a
// configuration error naming the path and the cause; it is never cleared or rewritten. Read with a
// cap, and only when it is a regular file: a symlink to /dev/zero or a FIFO in its place would
// otherwise grow cdata without end or hang it (and `__complete profiles` runs at every Tab).
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { errorCode, errorMessage, UsageError } from '../core/errors.js';
import { jsonSyntaxProblem, MAX_DEPTH, MAX_VALUES } from '../core/json.js';
import { JsonLimitError, scanJson } from '../core/json-scan.js';
import { describeBytes, readRegularFile } from '../io/read-file.js';
import type { Env } from './env.js';
import { configPath, NoConfigHome } from './paths.js';
import { holdersOf, octal, untrusted, type Holder } from './trust.js';
import { configProblem, storedValueProblem, type ConfigData, type StoredSetting } from './schema.js';

export interface LoadedConfig {
  /** Undefined when no folder can be named for it (NoConfigHome): there is no config then. */
  path: string | undefined;
  /** False when no config file exists yet. */
  exists: boolean;
  /** Permission bits of the file (e.g. 0o600), when it exists. */
  mode: number | undefined;
  /** The file and the folders that hold it, with their modes and owners (trust.ts), when it exists. */
  holders?: Holder[] | undefined;
  data: ConfigData;
}

/** A few profiles take a few hundred bytes; this is a thousand times more. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export function readConfig(env: Env): LoadedConfig {
  let path: string;
  try {
    path = configPath(env);
  } catch (error) {
    // Nowhere to keep a config: none to read. Commands that need none (--sandbox, a key and base
    // URL from the environment) run; writing one says why it cannot (store.ts).
    if (error instanceof NoConfigHome)
      return { path: undefined, exists: false, mode: undefined, data: { profiles: {} } };
    throw error;
  }
  let text: string;
  let mode: number;
  let stats: Stats;
  try {
    let bytes: Buffer;
    ({ bytes, stats } = readRegularFile(path, MAX_CONFIG_BYTES));
    text = withoutBom(bytes.toString('utf8'));
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
    // Bounded as every input is (core/json.ts): nesting past MAX_DEPTH would overflow the stack
    // when cdata copies or writes the config back.
    scanJson(text, { maxDepth: MAX_DEPTH, maxValues: MAX_VALUES });
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    if (error instanceof JsonLimitError) throw invalidConfig(path, `it ${error.message}`);
    throw new UsageError(`the config file ${path} is not valid JSON: ${jsonSyntaxProblem(error, text)}`, {
      hint: 'Fix or move the file; cdata never rewrites a file it cannot read.',
      cause: error,
    });
  }
  // JSON.parse keeps the last of two equal keys, and a write would drop the first for good (a
  // profile, a stored key): a file that holds two is not used as it is.
  const twice = duplicateKey(text);
  if (twice !== undefined) throw invalidConfig(path, `${twice} appears twice`);
  const problem = configProblem(data);
  if (problem) throw invalidConfig(path, problem);
  const config = data as ConfigData;
  return {
    path,
    exists: true,
    mode,
    holders: holdersOf(path, stats),
    data: { ...config, profiles: config.profiles ?? {} },
  };
}

/**
 * The first key that an object of `text` (valid JSON) holds twice, as a path (`profiles.prod`);
 * undefined when none does. One pass over its tokens.
 */
function duplicateKey(text: string): string | undefined {
  type Frame = { keys: Set<string> | undefined; at: string; key: boolean };
  const frames: Frame[] = [];
  const under = (at: string, key: string) => (at ? `${at}.${key}` : key);
  let last = '';
  for (const [token] of text.matchAll(/"(?:[^"\\]|\\.)*"|[{}[\],]/g)) {
    const frame = frames.at(-1);
    if (token === '{' || token === '[') {
      const at = frame?.keys ? under(frame.at, last) : (frame?.at ?? '');
      frames.push({ keys: token === '{' ? new Set() : undefined, at, key: true });
    } else if (token === '}' || token === ']') frames.pop();
    else if (token === ',') {
      if (frame) frame.key = true;
    } else if (frame?.keys && frame.key) {
      last = JSON.parse(token) as string;
      if (frame.keys.has(last)) return under(frame.at, last);
      frame.keys.add(last);
      frame.key = false;
    }
  }
  return undefined;
}

/**
 * A byte order mark (Notepad writes one) is no part of the config's JSON: the parser's error for
 * it would point at an invisible character. conf, which reads the file before a write, skips it too.
 */
export const withoutBom = (text: string): string => text.replace(/^\uFEFF/, '');

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
  if (problem) throw invalidConfig(config.path ?? 'config.json', problem); // a value read has a file
  return value;
}

/**
 * A warning when group or others can read the file (it holds keys), or someone else can write it
 * or replace it (then they choose where the keys go and what key commands run): what, and the fix.
 */
export function permissionWarning(config: LoadedConfig): string | undefined {
  const { path, mode } = config;
  if (mode === undefined || process.platform === 'win32') return undefined;
  // Reading matters only when there are keys to read: a file of key commands and base URLs (a
  // Kubernetes Secret mounted 0440) gives nothing away. Writing it always matters.
  const keys = Object.values(config.data.profiles).some((profile) => profile.key !== undefined);
  const readable = (mode & 0o044) !== 0;
  const writable = (mode & 0o022) !== 0;
  if (writable || (readable && keys)) {
    const open = [readable && 'readable', writable && 'writable'].filter(Boolean).join(' and ');
    const why = [
      keys && 'it holds API keys',
      writable && `whoever can write it chooses where ${keys ? 'they' : 'your keys'} go and what key commands run`,
    ]
      .filter(Boolean)
      .join(', and ');
    return `the config file ${path} is ${open} by others (mode ${octal(mode)}); ${why}: run chmod 600 '${path}'`;
  }
  const found = firstUntrusted(config);
  if (found === undefined) return undefined;
  const { holder, why, fix } = found;
  return `the config ${holder.kind} ${holder.path} ${why}: whoever can change it chooses where your keys go and what key commands run: run ${fix}`;
}

/**
 * A profile's key command, checked as `config set` checks it, and never run from a config file
 * someone else could change (trust.ts): whoever can, could choose what runs as you.
 */
export function keyCommandToRun(config: LoadedConfig, profile: string, command: string): string {
  storedValue(config, profile, 'keyCommand', command);
  const found = firstUntrusted(config);
  if (found !== undefined) {
    const { holder, why, fix } = found;
    throw new UsageError(
      `the config ${holder.kind} ${holder.path} ${why}: cdata runs no key command from it (profile '${profile}'), as whoever can change it could choose what runs as you`,
      { hint: `Run ${fix}, then try again.` },
    );
  }
  return command;
}

/**
 * The permission warning for a config file this run has just created (`before`: as read before
 * the write, when there was none, so nothing could be said): a folder others can write or
 * another user owns is told at the first write, the one that puts a key there.
 */
export function warningForNewFile(before: LoadedConfig, env: Env): string | undefined {
  return before.mode === undefined ? permissionWarning(readConfig(env)) : undefined;
}

/**
 * Whether a profile's stored pager may run: it runs through /bin/sh as a key command does, so
 * never from a config file someone else could change either.
 */
export function storedPagerRuns(config: LoadedConfig): boolean {
  return firstUntrusted(config) === undefined;
}

/** The first of the file and its folders that someone else could change, why, and the fix. */
function firstUntrusted(config: LoadedConfig): { holder: Holder; why: string; fix: string } | undefined {
  for (const holder of config.holders ?? []) {
    const found = untrusted(holder);
    if (found !== undefined) return { holder, ...found };
  }
  return undefined;
}
