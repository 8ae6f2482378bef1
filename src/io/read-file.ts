// Reading a file cdata was pointed at (the config file, a webhook secret or body, an export's
// manifest) with a bound: only a regular file, and at most `maxBytes` of it. A symlink to
// /dev/zero would otherwise be read until memory runs out, and a FIFO would block the one thread
// in read(2) with no writer, deaf to Ctrl-C and SIGTERM (their handlers are JavaScript).
//
// One descriptor throughout: opened without blocking (a FIFO opens at once with O_NONBLOCK, and
// a terminal does not become ours with O_NOCTTY), then fstat'ed, so what is checked is what is
// read (a stat before the open could be answered by another file than the one opened).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Not a regular file: `kind` says what it is instead. */
export class NotARegularFile extends Error {
  readonly code = 'ENOTREGULAR';
  constructor(readonly kind: string) {
    super(`it is ${kind}, not a regular file`);
  }
}

/** More than the cap; nothing past the cap (plus one byte, to know) was read. */
export class FileTooLarge extends Error {
  readonly code = 'ETOOLARGE';
  constructor(readonly maxBytes: number) {
    super(`it is larger than ${describeBytes(maxBytes)}`);
  }
}

const CHUNK_BYTES = 64 * 1024;
// Windows has neither flag; there a FIFO cannot be opened by path anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * The bytes of the regular file at `path` (symlinks followed), and its stats. Throws the system
 * error as it comes (ENOENT, EACCES…: the caller decides what a missing file means),
 * NotARegularFile for a FIFO, device, folder or socket, and FileTooLarge past `maxBytes`.
 */
export function readRegularFile(path: string, maxBytes: number): { bytes: Buffer; stats: Stats } {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotARegularFile(kindOf(stats));
    if (stats.size > maxBytes) throw new FileTooLarge(maxBytes);
    // Read until the end rather than trusting the size: the file may grow while it is read.
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1));
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw new FileTooLarge(maxBytes);
      chunks.push(Buffer.from(chunk.subarray(0, read)));
    }
    return { bytes: Buffer.concat(chunks, total), stats };
  } finally {
    closeSync(fd);
  }
}

/**
 * The regular file at `path` opened for reading, to be read as a stream (a file too large to be
 * read whole); the caller closes it. Throws as readRegularFile does, but for the size.
 */
export function openRegularFile(path: string): number {
  const fd = openSync(path, OPEN_FLAGS);
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    throw new NotARegularFile(kindOf(stats));
  }
  return fd;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'something other than a file';
}

/** 4096 -> "4 KiB", 1048576 -> "1 MiB"; other sizes in bytes. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
