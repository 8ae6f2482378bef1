// Writing a file so that readers see either the old one or the new one, never a part: a temp
// file in the same folder, written, fsynced, renamed over the target, the folder fsynced. On any
// failure, or an interrupt, the temp file is removed and the target is untouched.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Io } from '../io.js';

export function writeFileAtomic(path: string, content: string | Buffer, io: Pick<Io, 'onInterrupt'>): void {
  // Unique enough: opened with O_EXCL ('wx'), so a clash fails rather than sharing a file. Not
  // node:crypto, which would load on every data command for a file name.
  const temp = join(dirname(path), `.${basename(path)}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const removeTemp = () => rmSync(temp, { force: true });
  const unregister = io.onInterrupt(removeTemp);
  try {
    const fd = openSync(temp, 'wx', 0o644);
    try {
      writeFileSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    syncFolder(dirname(path));
  } catch (error) {
    removeTemp();
    throw error;
  } finally {
    unregister();
  }
}

/** Makes the rename itself durable; some filesystems refuse to fsync a folder, which is fine. */
function syncFolder(folder: string): void {
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
