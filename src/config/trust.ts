// Who besides the user could change the config file: whoever can write it, or replace it in its
// folder (the folder of the path cdata reads and, when config.json is a link, of the file it
// leads to). Such a person chooses where the keys go and what key commands run as the user, so
// cdata warns (resolve.ts) and runs no key command (read.ts, keyCommandToRun). Root, and the
// user, are trusted owners; a folder with the sticky bit (/tmp) lets nobody else replace a file
// of the user's. Not on Windows, whose permissions are not these bits.
import { realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** The file, or a folder it is in, as cdata found it. */
export interface Holder {
  kind: 'file' | 'folder';
  path: string;
  /** Permission bits, the sticky bit included (0o600, 0o1777). */
  mode: number;
  owner: number;
}

/** The config file (its stats, as read) and the folders that hold it. */
export function holdersOf(path: string, file: Stats): Holder[] {
  const holders: Holder[] = [{ kind: 'file', path, mode: file.mode & 0o1777, owner: file.uid }];
  const folders = new Set([dirname(path)]);
  try {
    folders.add(dirname(realpathSync(path)));
  } catch {
    // Gone since it was read: its own folder is all there is to check.
  }
  for (const folder of folders) {
    const stats = statSync(folder, { throwIfNoEntry: false });
    if (stats) holders.push({ kind: 'folder', path: folder, mode: stats.mode & 0o1777, owner: stats.uid });
  }
  return holders;
}

/**
 * Why someone else could change what `holder` holds, and the commands that fix it; undefined when
 * nobody but the user (or root) can.
 */
export function untrusted(holder: Holder): { why: string; fix: string } | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || process.platform === 'win32') return undefined;
  const chmod = `chmod ${holder.kind === 'file' ? '600' : '700'} '${holder.path}'`;
  if (holder.owner !== uid && holder.owner !== 0)
    return {
      why: `belongs to another user (uid ${holder.owner})`,
      fix: `chown "$(id -un)" '${holder.path}' and ${chmod}`,
    };
  // A folder with the sticky bit lets others write in it, but not replace a file of the user's.
  const writable = (holder.mode & 0o022) !== 0 && (holder.kind === 'file' || (holder.mode & 0o1000) === 0);
  return writable ? { why: `is writable by others (mode ${octal(holder.mode)})`, fix: chmod } : undefined;
}

export const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');
