// Writing files so that readers see either the old file or the new one, never a part: the content
// goes to a temp file in the same folder, is fsynced, then renamed over the target and the folder
// fsynced. Until the rename (and on any failure, or an interrupt) the target is untouched and the
// temp file is removed. Staging and committing are separate, so a caller can stage a file while
// other work is in flight and put it in place once all is well.
//
// What the target is decides the rest, as it would for a shell's `>`: a symlink is written
// through (the file it points to is replaced, the link stays a link), a file the user may not
// write is refused, an existing file keeps its permissions and, where the user may set them, its
// owner and group (a 0600 file is not widened to 0644). Devices, pipes and descriptors are
// sink.ts's: nothing can be renamed over them.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fchmod,
  fchown,
  fstatSync,
  fsync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFile,
} from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Io } from './index.js';
import { errorCode } from '../core/errors.js';

/** Linux's limits, in bytes: one name in a path, and a whole path (less its terminating NUL). */
export const NAME_MAX = 255;
export const PATH_MAX = 4095;

export interface StagedFile {
  /** The file the content will replace. */
  path: string;
  /** The folder the rename happens in (the real one, where `path` is a symlink). */
  folder: string;
  /** Renames the staged content over `path`. */
  commit(): void;
  /** Removes the staged content; `path` stays as it was. */
  discard(): void;
}

/** Mode and owner for a file that replaces another: the old one's, so a 0600 file stays 0600. */
export interface Inherited {
  mode: number | undefined;
  owner: { uid: number; gid: number } | undefined;
}

/**
 * Writes `content` to a temp file beside `path` and fsyncs it. Asynchronous, so that files
 * staged together sync together: nine fsyncs one after another took ~35 ms here, overlapped ~5 ms.
 */
export async function stageFile(
  path: string,
  content: string | Buffer,
  io: Pick<Io, 'onInterrupt'>,
): Promise<StagedFile> {
  const { real, ...inherited } = fileTarget(path);
  const temp = tempPath(real);
  const discard = () => rmSync(temp, { force: true });
  const unregister = io.onInterrupt(discard);
  let written: FileId;
  try {
    written = await writeNewFile(temp, content, inherited);
  } catch (error) {
    unregister();
    throw error;
  }
  return {
    path,
    folder: dirname(real),
    commit() {
      try {
        // The name still the file written, not something another user put there since (a link
        // to a file of theirs, moved over `path` by the rename): in a folder others can change.
        const now = lstatSync(temp, { throwIfNoEntry: false });
        if (now?.dev !== written.dev || now.ino !== written.ino)
          throw new Error(
            `its temp file ${temp} was replaced while cdata wrote it: someone else can change that folder`,
          );
        renameSync(temp, real);
      } catch (error) {
        discard();
        throw error;
      } finally {
        unregister();
      }
    },
    discard() {
      unregister();
      discard();
    },
  };
}

/** `path` replaced whole by `content`; `path` must be a regular file or not exist yet. */
export async function writeFileAtomic(
  path: string,
  content: string | Buffer,
  io: Pick<Io, 'onInterrupt'>,
): Promise<void> {
  const staged = await stageFile(path, content, io);
  staged.commit();
  syncPath(staged.folder);
}

/**
 * What is done to an open file, off the main thread: node:fs's own calls on a descriptor, not
 * node:fs/promises, whose FileHandle loads readline and file watching with it (~0.7 MiB of the
 * peak of every export on Node 24: docs/performance.md, "Sixteenth stop"). `write` writes all of
 * it at the descriptor's position, as FileHandle's writeFile does.
 */
const onFd = {
  chown: promisify(fchown),
  chmod: promisify(fchmod),
  write: promisify(writeFile) as (fd: number, data: string | Buffer) => Promise<void>,
  sync: promisify(fsync),
};

/** How much of chunked content is gathered into one write. */
const WRITE_BYTES = 1024 * 1024;

/** What a new file is written from: its whole content, or its chunks as they are made (held one at a time). */
export type Content = string | Buffer | AsyncIterable<string | Buffer> | Iterable<string | Buffer>;

/** Which file a descriptor or a name is: its device and inode. */
export type FileId = { dev: number; ino: number };

/**
 * Creates `path`, which must not exist, holding `content`, fsynced; on failure it is removed
 * again. A new file gets what `>` would give (0666 less the umask); `inherited` sets another.
 * Returns which file it made.
 */
export async function writeNewFile(
  path: string,
  content: Content,
  { mode, owner }: Inherited = { mode: undefined, owner: undefined },
): Promise<FileId> {
  try {
    // Created synchronously, so an interrupt's cleanup always finds it: an open still in flight
    // in the thread pool could create it after the cleanup had run. Written, chowned and chmoded
    // through this descriptor alone, never opened again by name: in a folder others can write,
    // the name could by then be their symlink to a file of the user's (O_EXCL refuses one here).
    const fd = openSync(path, 'wx', mode ?? 0o666); // write-only: a 0200 file is written too
    try {
      // Owner first (a chown may clear set-id bits), then the mode. Best effort, as the user may
      // only give a file to a group they are in, and only root to another user.
      if (owner)
        await onFd
          .chown(fd, owner.uid, owner.gid)
          .catch(() => onFd.chown(fd, -1, owner.gid))
          .catch(() => undefined);
      if (mode !== undefined) await onFd.chmod(fd, mode);
      if (typeof content === 'string' || Buffer.isBuffer(content)) await onFd.write(fd, content);
      else {
        // As the chunks are made, gathered into writes of a MiB or so (a row a chunk would be a
        // write a row); content with none is written empty, as a string would be.
        let pending: Buffer[] = [];
        let size = 0;
        let written = false;
        const flush = async () => {
          const gathered = Buffer.concat(pending, size);
          pending = [];
          size = 0;
          await onFd.write(fd, gathered);
          written = true;
        };
        for await (const chunk of content) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
          pending.push(bytes);
          size += bytes.length;
          if (size >= WRITE_BYTES) await flush();
        }
        if (size > 0 || !written) await flush();
      }
      await onFd.sync(fd);
      const { dev, ino } = fstatSync(fd);
      return { dev, ino };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
}

/**
 * The temp file for `real`: `.NAME.RANDOM.tmp` beside it, with NAME cut where it would take the
 * temp name past NAME_MAX or its path past PATH_MAX: a valid 255-byte name must stay writable.
 */
export function tempPath(real: string): string {
  // Unique enough: created with O_EXCL, so a clash fails rather than sharing a file. Not
  // node:crypto, which would load on every data command for a file name.
  const random = Math.random().toString(36).slice(2, 10);
  const folder = dirname(real);
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  const room = Math.min(NAME_MAX, PATH_MAX - Buffer.byteLength(prefix)) - `..${random}.tmp`.length;
  return `${prefix}.${cutToBytes(basename(real), room)}.${random}.tmp`;
}

/** The longest start of `text` that is at most `bytes` long in UTF-8, cut between characters. */
export function cutToBytes(text: string, bytes: number): string {
  let kept = '';
  let size = 0;
  for (const char of text) {
    size += Buffer.byteLength(char);
    if (size > bytes) break;
    kept += char;
  }
  return kept;
}

type FileTarget = Inherited & { real: string };

/** The file writing to `path` replaces; throws, with a reason for the message, where it cannot be one. */
function fileTarget(path: string): FileTarget {
  const stats = statSync(path, { throwIfNoEntry: false }); // follows symlinks
  if (stats === undefined) {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new Error('it is a symlink to a file that does not exist');
    return { real: path, mode: undefined, owner: undefined };
  }
  if (stats.isDirectory()) throw new Error('it is a folder');
  if (!stats.isFile()) throw new Error('it is not a regular file (a device or a pipe)');
  // As `>` would: a file the user may not write is not replaced, though the folder would allow
  // it (a rename there would take another user's file from them, or undo a chmod a-w).
  accessSync(path, constants.W_OK);
  const mine = process.getuid?.() === stats.uid && process.getgid?.() === stats.gid;
  return {
    real: realpathSync(path),
    mode: stats.mode & 0o7777,
    owner: mine ? undefined : { uid: stats.uid, gid: stats.gid },
  };
}

/**
 * `mkdir -p`: each missing folder from the top, `mode` on each (less the umask); returns the
 * folders it made. Not Node's recursive mkdir, which spins forever where a parent answers ENOENT
 * to mkdir (under /proc), deaf to SIGTERM.
 */
export function makeFolders(dir: string, mode?: number): string[] {
  const missing: string[] = [];
  const made: string[] = [];
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
      made.push(folder);
    } catch (error) {
      // Made meanwhile by someone else: as good as made here.
      if (errorCode(error) !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
  return made;
}

/**
 * fsync: a folder, to make the renames and links in it durable, or a file. Best effort: some
 * filesystems refuse to fsync a folder, which is fine.
 */
export function syncPath(path: string): void {
  try {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort.
  }
}
