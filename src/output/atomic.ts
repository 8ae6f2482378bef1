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
// FIFO) is written directly, since nothing can be renamed over it. `/dev/stdout`, `/dev/stderr`
// and `/dev/fd/N` are the descriptors cdata already holds (see descriptorOf).
import { accessSync, closeSync, constants, existsSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  return stageAt(path, target, content, io);
}

async function stageAt(path: string, { real, mode, owner }: FileTarget, content: string | Buffer, io: Pick<Io, 'onInterrupt'>): Promise<StagedFile> {
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
    const file = await open(temp, constants.O_WRONLY); // write-only: a 0200 file is written too
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
  (await stageAt(path, target, content, io)).commit();
  syncFolder(dirname(target.real));
}

/**
 * The descriptor `path` names when it is `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or
 * `/proc/self/fd/N`, written as the descriptor it is: opened by name, stdout redirected to a
 * file would be truncated (`>>` lost) or replaced by a rename. See writeInherited for N > 2.
 */
export function descriptorOf(path: string): number | undefined {
  const match = /^\/(?:dev\/std(out|err)|dev\/fd\/(\d+)|proc\/self\/fd\/(\d+))$/.exec(path);
  if (!match) return undefined;
  return match[1] === 'out' ? 1 : match[1] === 'err' ? 2 : Number(match[2] ?? match[3]);
}

type FileTarget = { kind: 'file'; real: string; mode: number | undefined; owner: { uid: number; gid: number } | undefined };
type Target = FileTarget | { kind: 'stream'; fifo: boolean };

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
  await writeToPipe(await readerOf(path), content);
}

/** Writes all of `content` to the pipe `fd` on the event loop, then closes it; a reader gone is EPIPE. */
async function writeToPipe(fd: number, content: string | Buffer): Promise<void> {
  const { Socket } = await import('node:net');
  const pipe = new Socket({ fd, readable: false, writable: true });
  await new Promise<void>((resolve, reject) => {
    pipe.once('error', reject);
    // end()'s callback gets the error too, before 'error' fires.
    pipe.end(content, (error?: Error | null) => (error ? reject(error) : resolve()));
  });
}

/**
 * A descriptor cdata inherited (`--out /dev/fd/3 3>>log`, or bash's `--out >(cmd)`), written
 * as `>&N` would: a pipe through the event loop, a file at its offset (appending if it was
 * opened so), a terminal or device directly. Node's own descriptors (its event loop's eventfd
 * and epoll, its internal pipes, whose both ends it holds, the sandbox's sockets) are refused:
 * writing into those crashed it. Linux shows which is which in /proc/self/fd.
 */
export async function writeInherited(fd: number, content: string): Promise<void> {
  let link: string;
  try {
    link = readlinkSync(`/proc/self/fd/${fd}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/fd')) throw new Error(`descriptor ${fd} is not open`);
    throw new Error('this system does not show which descriptors cdata was given: redirect stdout instead');
  }
  if (/^(anon_inode|socket):/.test(link) || (link.startsWith('pipe:') && bothEndsHeld(link))) {
    throw new Error(`descriptor ${fd} is Node's own (${link}), not one cdata was given`);
  }
  if ((fdFlags(String(fd)) & 3) === constants.O_RDONLY) throw new Error(`descriptor ${fd} is open for reading only`);
  if (fstatSync(fd).isFIFO()) return writeToPipe(fd, content);
  writeFileSync(fd, content);
}

/**
 * Whether this process holds both ends of the pipe `link`: then it is Node's own (a write end
 * that is also stdout, `3>&1`, is not).
 */
function bothEndsHeld(link: string): boolean {
  const modes = new Set<number>();
  for (const other of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${other}`) === link) modes.add(fdFlags(other) & 3);
    } catch {
      // the listing's own descriptor, closed by now
    }
  }
  return modes.has(constants.O_RDONLY) && modes.has(constants.O_WRONLY);
}

function fdFlags(fd: string): number {
  return Number.parseInt(/^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0', 8);
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
