// Writing files so that readers see either the old file or the new one, never a part: the content
// goes to a temp file in the same folder, is fsynced, then renamed over the target and the folder
// fsynced. Until the rename (and on any failure, or an interrupt) the target is untouched and the
// temp file is removed. Staging and committing are separate so that `cdata export` can stage every
// file first and rename them together at the end.
//
// What the target is decides the rest, as it would for a shell's `>`: a symlink is written
// through (the file it points to is replaced, the link stays a link), a file the user may not
// write is refused, an existing file keeps its permissions and, where the user may set them, its
// owner and group (a 0600 file is not widened to 0644), and a device or a pipe (`/dev/null`, a
// FIFO) is written directly, since nothing can be renamed over it. `/dev/stdout` and
// `/dev/stderr` are the descriptors cdata already holds (see descriptorOf).
import { accessSync, closeSync, constants, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Io } from '../io.js';

export interface StagedFile {
  /** The file the content will replace. */
  path: string;
  /** Renames the staged content over `path`. */
  commit(): void;
  /** Removes the staged content; `path` stays as it was. */
  discard(): void;
}

/**
 * Writes `content` to a temp file beside `path` and fsyncs it. Asynchronous, so that files
 * staged together (an export's lists) sync together: nine fsyncs one after another took ~35 ms
 * here, overlapped ~5 ms.
 */
export async function stageFile(path: string, content: string | Buffer, io: Pick<Io, 'onInterrupt'>): Promise<StagedFile> {
  const target = targetOf(path);
  if (target.kind === 'stream') throw new Error('it is not a regular file (a device or a pipe)');
  const { real, mode, owner } = target;
  // Unique enough: opened with O_EXCL ('wx'), so a clash fails rather than sharing a file. Not
  // node:crypto, which would load on every data command for a file name.
  const temp = join(dirname(real), `.${basename(real)}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const discard = () => rmSync(temp, { force: true });
  const unregister = io.onInterrupt(discard);
  try {
    // A new file gets what `>` would give (0666 less the umask); a replaced one keeps its mode.
    // Created synchronously, so an interrupt's cleanup always finds it: an open still in flight
    // in the thread pool could create it after the cleanup had run. Reopened without O_CREAT,
    // so nothing in flight can bring it back once removed.
    closeSync(openSync(temp, 'wx', mode ?? 0o666));
    const file = await open(temp, 'r+');
    try {
      // Owner first (a chown may clear set-id bits), then the mode. Best effort, as the user may
      // only give a file to a group they are in, and only root to another user.
      if (owner) await file.chown(owner.uid, owner.gid).catch(() => file.chown(-1, owner.gid)).catch(() => undefined);
      if (mode !== undefined) await file.chmod(mode);
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
  } catch (error) {
    unregister();
    discard();
    throw error;
  }
  return {
    path,
    commit() {
      try {
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

export async function writeFileAtomic(path: string, content: string | Buffer, io: Pick<Io, 'onInterrupt'>): Promise<void> {
  const target = targetOf(path);
  if (target.kind === 'stream') return target.fifo ? writeFifo(path, content) : writeFile(path, content);
  const staged = await stageFile(path, content, io);
  staged.commit();
  syncFolder(dirname(target.real));
}

/**
 * The descriptor `path` names when it is `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or
 * `/proc/self/fd/N`: cdata writes to fd 1 and 2 as they are (opened by name, stdout redirected
 * to a file would be truncated, `>>` lost, or replaced by a rename). Any other number is
 * refused by the caller: past 2, descriptors are as likely Node's own (its event loop's, its
 * signal pipe) as one the shell handed over, and writing into those crashes it.
 */
export function descriptorOf(path: string): number | undefined {
  const match = /^\/(?:dev\/std(out|err)|dev\/fd\/(\d+)|proc\/self\/fd\/(\d+))$/.exec(path);
  if (!match) return undefined;
  return match[1] === 'out' ? 1 : match[1] === 'err' ? 2 : Number(match[2] ?? match[3]);
}

type Target =
  | { kind: 'file'; real: string; mode: number | undefined; owner: { uid: number; gid: number } | undefined }
  | { kind: 'stream'; fifo: boolean };

/** What writing to `path` means; throws, with a reason for the message, where it cannot be a file. */
function targetOf(path: string): Target {
  const stats = statSync(path, { throwIfNoEntry: false }); // follows symlinks
  if (stats === undefined) {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) throw new Error('it is a symlink to a file that does not exist');
    return { kind: 'file', real: path, mode: undefined, owner: undefined };
  }
  if (stats.isDirectory()) throw new Error('it is a folder');
  if (!stats.isFile()) return { kind: 'stream', fifo: stats.isFIFO() };
  // As `>` would: a file the user may not write is not replaced, though the folder would allow
  // it (a rename there would take another user's file from them, or undo a chmod a-w).
  accessSync(path, constants.W_OK);
  const mine = process.getuid?.() === stats.uid && process.getgid?.() === stats.gid;
  return { kind: 'file', real: realpathSync(path), mode: stats.mode & 0o7777, owner: mine ? undefined : { uid: stats.uid, gid: stats.gid } };
}

/**
 * A FIFO, written in place. Opening one blocks until something reads it, and a write blocks
 * while the reader is slow, both inside threads no signal reaches, so Ctrl-C could not stop
 * cdata. Instead the reader is awaited by non-blocking opens 50 ms apart, and the content goes
 * through that same non-blocking descriptor on the event loop (as Node writes stdout to a pipe).
 */
async function writeFifo(path: string, content: string | Buffer): Promise<void> {
  const fd = await readerOf(path);
  const { Socket } = await import('node:net');
  const pipe = new Socket({ fd, readable: false, writable: true });
  await new Promise<void>((resolve, reject) => {
    pipe.once('error', reject);
    pipe.end(content, resolve);
  });
}

async function readerOf(fifo: string): Promise<number> {
  for (;;) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * `mkdir -p`: each missing folder from the top, `mode` on each (less the umask). Not Node's
 * recursive mkdir, which spins forever where a parent answers ENOENT to mkdir (under /proc),
 * deaf to SIGTERM.
 */
export function makeFolders(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // Made meanwhile by someone else: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
}

/** Makes renames in `folder` durable; some filesystems refuse to fsync a folder, which is fine. */
export function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort.
  }
}
