// One export's files as one atomic commit (layout.ts): a new generation folder is filled and
// fsynced, then a link to it is renamed over ..data. Until that rename, every reader and every
// crash sees the previous generation whole; from it on, the new one. A file of the generation
// is new content (write) or one carried forward from the current generation (carry: a hard link,
// else a copy), so a failed list keeps its previous file and a later change (per-list state)
// adds its own files without touching the commit.
//
// The order, and what a kill at each point leaves:
//   1. write and carry the files into the new folder, fsync them and it   -> the new folder is
//      garbage, removed by the next export (clearGarbage)
//   2. place: a link DIR/name -> ..data/name for each name not yet shown   -> such a link leads
//      nowhere until the commit (the previous generation has no such file); the next export
//      removes it
//   3. commit: ..data_tmp -> new folder, renamed over ..data              -> the new export, whole
//   4. tidy: links to names the new generation lacks, and the old folder, removed
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchownSync,
  openSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Io } from '../io/index.js';
import { syncPath, writeNewFile, type Content, type Inherited } from '../io/atomic.js';
import { isLockLeftover } from '../io/lock.js';
import {
  DATA,
  DATA_TEMP,
  GENERATION_RANDOM_BYTES,
  generationName,
  isFileName,
  isGeneration,
  LINK_TEMP,
  linkTarget,
  LOCK,
  LOST_LOCK,
  visible,
} from './layout.js';

export class Generation {
  /** Files in the new generation. */
  private readonly files = new Set<string>();
  /** Links this run added, which lead nowhere should it never commit. */
  private readonly placed: string[] = [];
  private committed = false;
  private readonly unregister: () => void;

  private constructor(
    readonly dir: string,
    /** The generation ..data points to now; undefined in a folder that has none yet. */
    readonly current: string | undefined,
    /** The new generation's folder name. */
    readonly name: string,
    io: Pick<Io, 'onInterrupt'>,
    /** Whether this run still holds the folder's lock. */
    private readonly held: () => boolean,
  ) {
    this.unregister = io.onInterrupt(() => this.abandon());
  }

  /**
   * Makes the new generation's folder; nothing a reader sees changes until commit. It belongs to
   * whoever owns the folder it replaces (or DIR), where we may give it away (root may): an export
   * run once as root then leaves nothing the folder's owner cannot remove.
   */
  static open(dir: string, current: string | undefined, io: Pick<Io, 'onInterrupt'>, held: () => boolean): Generation {
    const name = generationName(new Date(), randomBytes(GENERATION_RANDOM_BYTES).toString('hex'));
    mkdirSync(join(dir, name));
    const owner = statSync(join(dir, current ?? '.'));
    if (owner.uid !== process.getuid?.() || owner.gid !== process.getgid?.())
      swallow(() => giveFolder(join(dir, name), owner.uid, owner.gid));
    return new Generation(dir, current, name, io, held);
  }

  get path(): string {
    return join(this.dir, this.name);
  }

  /** `name` with `content`, fsynced; a file of that name in the current generation lends its mode and owner. */
  async write(name: string, content: Content): Promise<void> {
    await writeNewFile(join(this.path, name), content, this.inherited(name));
    this.files.add(name);
  }

  /** `name` as the current generation has it (or from `source`): a hard link, or a copy where links fail. */
  carry(name: string, source = join(this.dir, this.current!, name)): void {
    const target = join(this.path, name);
    try {
      linkSync(source, target);
    } catch {
      // No hard links on this filesystem (some network and FUSE ones), or the link limit.
      copyFileSync(source, target, constants.COPYFILE_EXCL);
      syncPath(target);
    }
    this.files.add(name);
  }

  /**
   * Carries forward every file of the current generation not yet in this one, but `except`:
   * files of older exports stay until a newer file of the same name replaces them. A file whose
   * link a user removed (`rm DIR/old.csv`) is left behind, so deleting the name deletes the file.
   * Hidden files (a dot name: per-list state) have no link and always go along.
   */
  carryRest(except: ReadonlySet<string>): string[] {
    if (this.current === undefined) return [];
    const carried: string[] = [];
    for (const entry of readdirSync(join(this.dir, this.current), { withFileTypes: true })) {
      const name = entry.name;
      if (!entry.isFile() || this.files.has(name) || except.has(name)) continue;
      if (!name.startsWith('.') && (!isFileName(name) || visible(this.dir, name) !== 'ours')) continue;
      this.carry(name);
      carried.push(name);
    }
    return carried;
  }

  /** Takes `name` out of the new generation again. */
  drop(name: string): void {
    rmSync(join(this.path, name), { force: true });
    this.files.delete(name);
  }

  /**
   * Makes DIR/name the link readers open, ahead of the commit; throws, with the reason, when
   * something else holds the name (a folder, someone's own file or link).
   */
  place(name: string): void {
    const seen = visible(this.dir, name);
    if (seen === 'ours') return;
    if (seen === 'file') throw new Error(`it is a plain file, where cdata keeps a link into ${DATA}`);
    if (seen !== 'absent') throw new Error(seen.inTheWay);
    symlinkSync(linkTarget(name), join(this.dir, name));
    this.placed.push(name);
  }

  /**
   * The one atomic step, then the tidying. Synchronous from the first fsync to the end, so an
   * interrupt (which runs on the event loop) comes before it or after it, never in between.
   * `plain`: names still shown by plain files of the same content (adopt.ts), linked after it.
   */
  commit(plain: readonly string[] = []): void {
    syncPath(this.path);
    syncPath(this.dir); // the links placed
    // Never a commit that another export could have undone: without the lock (taken over while
    // this run was stopped or stalled) or with its folder gone, ..data stays as it is.
    if (!this.held()) throw new Error(LOST_LOCK);
    if (!lstatSync(this.path, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`its generation folder ${this.name} is gone; nothing was committed`);
    renameLink(this.dir, DATA_TEMP, this.name, DATA);
    this.committed = true;
    this.unregister();
    syncPath(this.dir);
    // Committed. A plain file of the same content is replaced by its link, one rename each:
    // readers see no change. One that cannot be (a full disk) is reported once the rest is
    // tidied; the folder shows the committed export either way, and the next one links the rest.
    let unlinked: unknown;
    for (const name of plain) {
      try {
        renameLink(this.dir, LINK_TEMP, linkTarget(name), name);
      } catch (error) {
        unlinked ??= error;
      }
    }
    swallow(() => this.removeStaleLinks());
    if (this.current !== undefined)
      swallow(() => rmSync(join(this.dir, this.current!), { recursive: true, force: true }));
    syncPath(this.dir);
    if (unlinked !== undefined) throw unlinked;
  }

  /** Removes the new generation and the links placed for it; a committed one stays. */
  abandon(): void {
    if (this.committed) return;
    this.unregister();
    swallow(() => rmSync(this.path, { recursive: true, force: true }));
    // Each was absent before this run placed it.
    for (const name of this.placed)
      swallow(() => visible(this.dir, name) === 'ours' && unlinkSync(join(this.dir, name)));
  }

  private removeStaleLinks(): void {
    for (const name of readdirSync(this.dir)) {
      if (!this.files.has(name) && visible(this.dir, name) === 'ours') unlinkSync(join(this.dir, name));
    }
  }

  /** The mode and owner of the current generation's file of that name, which the new one keeps. */
  private inherited(name: string): Inherited {
    const stats =
      this.current === undefined ? undefined : lstatSync(join(this.dir, this.current, name), { throwIfNoEntry: false });
    if (!stats?.isFile()) return { mode: undefined, owner: undefined };
    const mine = process.getuid?.() === stats.uid && process.getgid?.() === stats.gid;
    return { mode: stats.mode & 0o7777, owner: mine ? undefined : { uid: stats.uid, gid: stats.gid } };
  }
}

/**
 * Removes what a killed export left (it holds the folder's lock, so nothing here is in use):
 * generation folders ..data does not point to, the temp links, the lock's own leftovers, and
 * links that lead nowhere.
 */
export function clearGarbage(dir: string, current: string | undefined): void {
  for (const name of readdirSync(dir)) {
    swallow(() => {
      if (
        (isGeneration(name) && name !== current) ||
        name === DATA_TEMP ||
        name === LINK_TEMP ||
        isLockLeftover(name, LOCK)
      ) {
        rmSync(join(dir, name), { recursive: true, force: true });
      } else if (visible(dir, name) === 'ours' && !(current !== undefined && existsIn(join(dir, current), name))) {
        unlinkSync(join(dir, name));
      }
    });
  }
}

/** DIR/name made a link to `target` by one rename, of the temp link `temp`. */
function renameLink(dir: string, temp: string, target: string, name: string): void {
  const path = join(dir, temp);
  rmSync(path, { force: true });
  symlinkSync(target, path);
  try {
    renameSync(path, join(dir, name));
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
}

function existsIn(folder: string, name: string): boolean {
  return lstatSync(join(folder, name), { throwIfNoEntry: false }) !== undefined;
}

function swallow(step: () => unknown): void {
  try {
    step();
  } catch {
    // Tidying, or cleaning up after a failure: the next export finishes what is left.
  }
}

/**
 * `path`, a folder just made, given to `uid`:`gid` through a descriptor opened without following
 * a symlink: DIR's owner could swap the new folder's name for a link between the mkdir and the
 * chown, which by name would give the link's target (a file of root's) away.
 */
function giveFolder(path: string, uid: number, gid: number): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    fchownSync(fd, uid, gid);
  } finally {
    closeSync(fd);
  }
}
