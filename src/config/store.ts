// Changing the config file (auth login/logout, profile use/remove, config set/unset). Only these
// commands load conf (~30 ms): every other command reads the file with read.ts. Under the lock
// the file is read again, changed and rewritten, so concurrent writers lose nothing; a file that
// cannot be read or parsed is refused here exactly as on reading, before conf ever opens it.
import { accessSync, constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { makeFolders } from '../io/atomic.js';
import { jsonSyntaxProblem } from '../core/json.js';
import { errorCode, errorMessage, UsageError } from '../core/errors.js';
import type { Io } from '../io/index.js';
import { cannotWriteIn, withLock } from '../io/lock.js';
import { configDir, configPath } from './paths.js';
import { octal } from './trust.js';
import { MAX_CONFIG_BYTES, readConfig, withoutBom } from './read.js';
import { describeBytes } from '../io/read-file.js';
import type { ConfigData } from './schema.js';

export const FILE_MODE = 0o600;
export const FOLDER_MODE = 0o700;

/**
 * Runs `change` on the current config and writes the result (only when it changed). Whatever
 * `change` throws aborts the update with the file untouched; what it returns is returned.
 * `change` may run twice (a dry run when there is no file yet), so it only edits `data`.
 */
export async function updateConfig<T>(
  io: Pick<Io, 'env' | 'sleep' | 'onInterrupt'>,
  change: (data: ConfigData) => T,
): Promise<T> {
  const folder = configDir(io.env);
  const path = configPath(io.env);
  // No file yet and nothing to change (logout or unset on a fresh machine): no folder, lock or
  // file is created for it.
  const before = readConfig(io.env);
  if (!before.exists) {
    const probe = structuredClone(before.data);
    const result = change(probe);
    if (JSON.stringify(probe) === JSON.stringify(before.data)) return result;
  }
  ensureFolder(folder);
  return withLock(`${path}.lock`, io, async () => {
    refuseLink(path);
    refuseReadOnly(path);
    const current = readConfig(io.env);
    const next = structuredClone(current.data);
    const result = change(next);
    if (JSON.stringify(next) !== JSON.stringify(current.data)) await write(folder, path, next);
    return result;
  });
}

/**
 * What can be known before a write without taking the lock: the folder exists (or is created)
 * and is writable, and the file is not a link. `auth login` asks this before reading a key, so
 * nobody pastes a key only to learn it cannot be stored.
 */
export function checkWritable(env: Io['env']): void {
  const folder = configDir(env);
  ensureFolder(folder);
  refuseLink(configPath(env));
  refuseReadOnly(configPath(env));
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw cannotWriteIn(folder, error);
  }
}

/** The profile `name` in `data`, created empty when missing. */
export function profileIn(data: ConfigData, name: string): NonNullable<ConfigData['profiles'][string]> {
  if (!Object.hasOwn(data.profiles, name)) data.profiles[name] = {};
  return data.profiles[name]!;
}

function ensureFolder(folder: string): void {
  try {
    // 0700 on every folder this creates (umask can only narrow it); an existing folder is the
    // user's choice and stays as it is.
    makeFolders(folder, FOLDER_MODE);
  } catch (error) {
    throw new UsageError(`cannot create the config folder ${folder}: ${errorMessage(error)}`, {
      cause: error,
      hint: 'Choose another folder with CDATA_CONFIG_DIR.',
    });
  }
}

/**
 * A symbolic link is refused rather than followed or replaced: writing through it would put the
 * key wherever the link points (a dotfiles repository, a shared folder), and replacing it with a
 * file would silently break the user's setup. Reading through a link is fine.
 */
function refuseLink(path: string): void {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return;
    target = readlinkSync(path);
  } catch {
    return; // no file yet
  }
  throw new UsageError(
    `the config file ${path} is a symbolic link (to ${target}); cdata does not write through links or replace them`,
    {
      hint: 'Put the real file in its place, or set CDATA_CONFIG_DIR to the folder that holds it.',
    },
  );
}

/**
 * A config file the user may not write is not replaced, though the folder would allow it (a
 * rename there would undo a chmod a-w made on purpose), as `--out` treats a file. No file yet: fine.
 */
function refuseReadOnly(path: string): void {
  let why: string;
  let cause: unknown;
  try {
    accessSync(path, constants.W_OK);
    // Root may write any file: to root, a mode without its owner's write bit is the `chmod a-w`.
    // (Anyone else was refused above, or may write it through its group or an ACL.)
    if (process.getuid?.() !== 0) return;
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o200) !== 0) return;
    why = `mode ${octal(mode)}`;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    why = errorCode(error) ?? 'EACCES';
    cause = error;
  }
  throw new UsageError(`the config file ${path} may not be written (${why}); nothing was changed`, {
    cause,
    hint: `Make it writable (chmod u+w '${path}') to change it, or set CDATA_CONFIG_DIR to another folder.`,
  });
}

/** The config as written: what `write` stores, and what `readConfig` reads back. */
const serialize = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function write(folder: string, path: string, data: ConfigData): Promise<void> {
  // Never a file cdata would then refuse to read (a config grown with fields of someone else's).
  const size = Buffer.byteLength(serialize(data));
  if (size > MAX_CONFIG_BYTES)
    throw new UsageError(
      `cannot write the config file ${path}: it would be ${describeBytes(size)}, more than the ${describeBytes(MAX_CONFIG_BYTES)} cdata reads; nothing was changed`,
      {
        hint: 'Move out of the file what cdata does not keep there (profiles, their settings and keys), then try again.',
      },
    );
  const { default: Conf } = await import('conf');
  try {
    const conf = new Conf<Record<string, unknown>>({
      cwd: folder,
      configName: 'config', // config.json, as paths.ts names it
      projectSuffix: '',
      clearInvalidConfig: false,
      // conf writes through a temp file and chmods it before the rename: 0600 on every write,
      // whatever the umask, and a file that had grown wider is narrowed again.
      configFileMode: FILE_MODE,
      accessPropertiesByDotNotation: false,
      serialize,
      // A blank file is an empty config, as readConfig reads it.
      deserialize: (text) => {
        const json = withoutBom(text);
        try {
          return (json.trim() === '' ? {} : JSON.parse(json)) as Record<string, unknown>;
        } catch (error) {
          // Changed since it was read under the lock: said without V8's quote of it (a key).
          throw new Error(`it is not valid JSON: ${jsonSyntaxProblem(error, json)}`);
        }
      },
    });
    conf.store = data as unknown as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`cannot write the config file ${path}: ${errorMessage(error)}`, { cause: error });
  }
}
