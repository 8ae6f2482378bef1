// Where rendered output goes: stdout, or --out. A file is written atomically (atomic.ts: the old
// file stays whole if anything fails); what cannot be renamed over is written as a shell's `>`
// would write it: `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the descriptors cdata already
// holds, a device (`/dev/null`) or a FIFO is written in place. Two destinations are refused
// with exit 2, however they are named: standard input (writing into the pipe cdata reads from
// fills it until cdata hangs; into the file it reads, loses it), a terminal, where untrusted
// text must arrive through stdout, which shows it safely (control characters escaped), and
// cdata's own config file (or its lock), which holds every profile and key.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { isatty } from 'node:tty';
import { configPath, NoConfigHome } from '../config/paths.js';
import { errorCode, errorMessage, UsageError } from '../core/errors.js';
import type { Io } from '../io/index.js';
import { writeFileAtomic } from '../io/atomic.js';

const NOT_STDIN = 'standard input is no place for output';
const TERMINAL =
  'it is a terminal, and cdata shows data on a terminal only through stdout, with control characters escaped (leave out --out)';

/** Writes `text` to stdout, or to `path` (--out) when given. */
export async function writeOutput(io: Io, path: string | undefined, text: string): Promise<void> {
  if (path === undefined) return void io.stdout.write(text);
  const fd = descriptorOf(path);
  if (fd === 0) throw new UsageError(`--out ${path}: ${NOT_STDIN}`);
  if (fd === undefined && isStandardInput(path))
    throw new UsageError(`--out ${path}: it is what standard input reads; ${NOT_STDIN}`);
  if (fd === undefined && isOwnConfig(path, io))
    throw new UsageError(
      `--out ${path}: it is cdata's config file, which holds every profile and its key; choose another file`,
    );
  const stream = fd === 1 ? io.stdout : fd === 2 ? io.stderr : undefined;
  try {
    if (stream?.isTTY) throw new Error(TERMINAL);
    if (stream) return void stream.write(text);
    if (fd !== undefined) return await writeInherited(fd, text);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && !stats.isFile() && !stats.isDirectory())
      return await (stats.isFIFO() ? writeFifo(path, text) : writeDevice(path, text));
    await writeFileAtomic(path, text, io);
  } catch (error) {
    throw cannotWrite(path, error);
  }
}

/**
 * A file that could not be written (no space, no permission, gone folder): the environment's
 * fault, exit 2. A folder that is not there is said as such (after the code, as Node's own
 * messages start), not as the failed open of the temp file the write goes through.
 */
export function cannotWrite(path: string, error: unknown): UsageError {
  const folder = dirname(path);
  if (errorCode(error) === 'ENOENT' && !existsSync(folder))
    return new UsageError(`cannot write ${path}: ENOENT: the folder ${folder} does not exist`, { cause: error });
  return new UsageError(`cannot write ${path}: ${errorMessage(error)}`, { cause: error });
}

/**
 * The descriptor `path` names when it is `/dev/stdin`, `/dev/stdout`, `/dev/stderr`,
 * `/dev/fd/N`, or `/proc/self/fd/N` (also by this process's pid, or `thread-self`), written as the
 * descriptor it is: opened by name, stdout redirected to a file would be truncated (`>>` lost)
 * or replaced by a rename. See writeInherited for N > 2.
 */
export function descriptorOf(path: string): number | undefined {
  const own = `(?:self|thread-self|${process.pid})`;
  const match = new RegExp(`^/(?:dev/std(in|out|err)|dev/fd/(\\d+)|proc/${own}/fd/(\\d+))$`).exec(resolve(path));
  if (!match) return undefined;
  const named = { in: 0, out: 1, err: 2 }[match[1] as 'in' | 'out' | 'err'];
  return named ?? Number(match[2] ?? match[3]);
}

/**
 * Whether `path` is what cdata's standard input reads: the same pipe, FIFO, socket, terminal or
 * file, by any name (a symlink, `/dev/pts/N`, the file given with `<`). A device that is not a
 * terminal (`/dev/null`, cron's usual stdin) is no hazard and is not counted.
 */
function isStandardInput(path: string): boolean {
  try {
    const input = fstatSync(0);
    if (input.isCharacterDevice() && !isatty(0)) return false;
    return sameFile(statSync(path, { throwIfNoEntry: false }), input);
  } catch {
    return false; // stdin closed, or a path that cannot be looked up: writing it says why
  }
}

/** Whether `path` is cdata's config file or its lock, by name or (a link, another path) by identity. */
function isOwnConfig(path: string, io: Io): boolean {
  let config: string;
  try {
    config = resolve(configPath(io.env));
  } catch (error) {
    if (error instanceof NoConfigHome) return false; // no folder for a config (paths.ts): none to overwrite
    throw error;
  }
  const target = resolve(path);
  if (target === config || target === `${config}.lock`) return true;
  try {
    return sameFile(statSync(target, { throwIfNoEntry: false }), statSync(config, { throwIfNoEntry: false }));
  } catch {
    return false; // a path that cannot be looked up: writing it says why
  }
}

/** Two looked-up paths that are one file (a link, another name): the same device and inode. */
function sameFile(a: Stats | undefined, b: Stats | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** A device, written in place; a terminal (`/dev/tty`, `/dev/pts/N`) is refused (see above). */
async function writeDevice(path: string, content: string): Promise<void> {
  // O_NOCTTY: opening a terminal must not make it cdata's controlling terminal.
  const fd = openSync(path, constants.O_WRONLY | constants.O_NOCTTY);
  try {
    if (isatty(fd)) throw new Error(TERMINAL);
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
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
 * opened so), a device directly; a terminal is refused, as by name. Node's own descriptors (its
 * event loop's eventfd and epoll, its internal pipes, whose both ends it holds, the sandbox's
 * sockets) are refused: writing into those crashed it. Linux shows which is which in /proc/self/fd.
 */
export async function writeInherited(fd: number, content: string): Promise<void> {
  let link: string;
  try {
    link = readlinkSync(`/proc/self/fd/${fd}`);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' && existsSync('/proc/self/fd')) throw new Error(`descriptor ${fd} is not open`);
    throw new Error('this system does not show which descriptors cdata was given: redirect stdout instead');
  }
  if (/^(anon_inode|socket):/.test(link) || (link.startsWith('pipe:') && bothEndsHeld(link))) {
    throw new Error(`descriptor ${fd} is Node's own (${link}), not one cdata was given`);
  }
  if ((fdFlags(String(fd)) & 3) === constants.O_RDONLY) throw new Error(`descriptor ${fd} is open for reading only`);
  if (isatty(fd)) throw new Error(TERMINAL);
  // A pipe is written through a description of our own, opened anew: the event loop makes what it
  // writes through non-blocking, and the inherited description is shared with the shell that
  // gave it (`exec 3>&1`), whose later commands would then fail with EAGAIN or lose data.
  if (fstatSync(fd).isFIFO()) return writeFifo(`/proc/self/fd/${fd}`, content);
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
      if (errorCode(error) !== 'ENXIO') throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
