// The export folder before an export writes to it: locked (one export at a time), cleared of
// what a killed export left, an older cdata's plain files adopted (adopt.ts), and the previous
// manifest read. All of it after every check that needs no folder has passed.
import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { LockSubject } from '../io/lock.js';
import { withLock } from '../io/lock.js';
import { CliError, UsageError } from '../core/errors.js';
import type { Io } from '../io/index.js';
import { cannotWrite } from '../output/sink.js';
import { adoptPlainFiles } from './adopt.js';
import { CHANGES_FILE } from './changes-file.js';
import { clearGarbage, Generation } from './generation.js';
import { currentGeneration, DATA, LOCK, LOST_LOCK, visible } from './layout.js';
import { MANIFEST_FILE, plainManifestIsOurs, readPrevious, type Previous } from './manifest.js';
import { runFolderMark } from './profiles/run-record.js';

export interface OpenFolder {
  previous: Previous;
  /** The new generation, to be filled and committed (or abandoned). */
  generation: Generation;
}

/**
 * Runs `work` holding the folder's lock. A second export into the same folder waits a few
 * seconds for the first to finish, then gives up with exit 2; a lock whose holder died is taken
 * over (lock.ts).
 */
export function withFolderLock<T>(
  dir: string,
  io: Pick<Io, 'sleep' | 'onInterrupt'>,
  work: (held: () => boolean) => Promise<T>,
): Promise<T> {
  const subject: LockSubject = {
    held: `another cdata is exporting into ${dir}`,
    wait: 'Let it finish, then run this export again.',
    cannotWrite: (error) => cannotWrite(join(dir, LOCK), error),
    remake: true,
  };
  const lockPath = join(dir, LOCK);
  return withLock(lockPath, io, (held) => lostLockSaid(work, held, lockPath), subject);
}

/**
 * `work`, whose failure after the lock was taken from it is said as that: the export that took it
 * over (its holder's refresh unseen for STALE_AFTER_MS: a stop, a stall) clears the folder's other
 * generations, this one's too, and the file this run was writing goes with it. Its ENOENT would
 * hide why.
 */
async function lostLockSaid<T>(
  work: (held: () => boolean) => Promise<T>,
  held: () => boolean,
  lockPath: string,
): Promise<T> {
  try {
    return await work(held);
  } catch (error) {
    // Held still, or no lock at all (the folder itself removed): the error says what happened.
    if (held() || !existsSync(lockPath)) throw error;
    throw new UsageError(LOST_LOCK, {
      cause: error,
      hint: 'Run one export into a folder at a time: a lock not refreshed for 10 s (a run stopped or stalled that long) is taken over by the next.',
    });
  }
}

/** Under the lock (`held` says it still is): the folder made ready for a new generation of these files. */
export function openFolder(
  dir: string,
  files: readonly string[],
  io: Pick<Io, 'onInterrupt'>,
  held: () => boolean,
): OpenFolder {
  try {
    return prepare(dir, files, io, held);
  } catch (error) {
    // Whatever the folder refuses (a permission, a disk error) is the environment's: exit 2.
    if (error instanceof CliError) throw error;
    throw cannotWrite(dir, error);
  }
}

function prepare(dir: string, files: readonly string[], io: Pick<Io, 'onInterrupt'>, held: () => boolean): OpenFolder {
  // An export --profiles run's folder holds a folder per profile: one export's files beside them
  // would mix two layouts that a script, `cdata changes` and the next run each read as one.
  const record = runFolderMark(dir);
  if (record !== undefined)
    throw new UsageError(`cannot export into ${dir}: it holds an export --profiles run (${record})`, {
      hint: `Each profile's export is in its folder there: cdata -p NAME export --dir ${join(dir, 'NAME')}; or choose another --dir.`,
    });
  const manifest = visible(dir, MANIFEST_FILE);
  if (typeof manifest === 'object') throw inTheWay(dir, MANIFEST_FILE, manifest.inTheWay, 'its manifest');
  // A plain manifest.json is taken over only when an older cdata wrote it (adopt.ts).
  if (manifest === 'file' && !plainManifestIsOurs(dir))
    throw inTheWay(dir, MANIFEST_FILE, 'it is a plain file, and not a manifest cdata wrote', 'its manifest');
  // No cdata before change detection wrote changes.ndjson: a plain file of that name is someone's own.
  const changes = visible(dir, CHANGES_FILE);
  if (changes === 'file')
    throw inTheWay(
      dir,
      CHANGES_FILE,
      'it is a plain file, where cdata keeps a link into ..data',
      'the changes each export finds',
    );
  if (typeof changes === 'object') throw inTheWay(dir, CHANGES_FILE, changes.inTheWay, 'the changes each export finds');
  clearGarbage(dir, currentGeneration(dir));
  const previous = readPrevious(dir);
  const current = adoptPlainFiles(dir, [MANIFEST_FILE, ...files, ...previous.byFile.keys()], io, held);
  return { previous, generation: Generation.open(dir, current, io, held) };
}

/**
 * The entry of DIR that marks it a single export's folder: its manifest, its link to the current
 * generation, or the lock of one under way (a first export has neither yet). Undefined for any other.
 */
export function exportMark(dir: string): string | undefined {
  return [MANIFEST_FILE, DATA, LOCK].find(
    (name) => lstatSync(join(dir, name), { throwIfNoEntry: false }) !== undefined,
  );
}

function inTheWay(dir: string, name: string, why: string, what: string): UsageError {
  return new UsageError(`cannot export into ${dir}: ${join(dir, name)} is in the way (${why})`, {
    hint: `cdata keeps ${what} under that name: move the thing there away, or choose another --dir.`,
  });
}
