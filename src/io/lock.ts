// A lock file, so two cdata processes neither corrupt nor lose each other's work: beside the
// config file, held while one re-reads, changes and rewrites it; in an export folder, held for
// the whole export. Created with O_EXCL (atomic on every local filesystem); retried with
// backoff. A lock is stale, and taken over, when its holder is gone: on this host, when its
// process no longer exists, or its pid is now another process's (however long the holder has
// been stopped or stalled: a live holder keeps it); from another host, another boot or another
// pid namespace (a container's), or with an owner that cannot be read, when it has not changed
// while this process waited longer than a holder takes to refresh it (timed by this process's
// own waits: never by comparing the holder's clock with this host's).
import {
  closeSync,
  existsSync,
  linkSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  lstatSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
// The lock records and checks processes by pid: not part of Io, as nothing a test would fake.
import { errorCode, errorMessage, UsageError } from '../core/errors.js';
import { makeFolders } from './atomic.js';
import { readRegularFile } from './read-file.js';
import type { Io } from './index.js';

/**
 * A holder refreshes its lock's time every quarter of this (an export holds it for minutes), so a
 * lock untouched this long belongs to a process that is gone or stuck.
 */
export const STALE_AFTER_MS = 10_000;
const FIRST_WAIT_MS = 5;
const LONGEST_WAIT_MS = 100;
/** About five seconds of waiting in all, with real sleeps. */
const ATTEMPTS = 60;
/**
 * For a holder elsewhere (another host, boot or pid namespace: a container's), whose lock is
 * judged by whether it changes: about 12.5 s in all, so that the lock of one gone (a pod killed a
 * moment ago) is seen unchanged for STALE_AFTER_MS while this waits, which a live holder's,
 * refreshed, never is.
 */
const FOREIGN_ATTEMPTS =
  ATTEMPTS + Math.ceil((STALE_AFTER_MS + STALE_AFTER_MS / 4 - waitedBefore(ATTEMPTS)) / LONGEST_WAIT_MS);

/**
 * A lock this much older than this host's clock is abandoned at once, whoever holds it: no holder
 * goes an hour without a refresh, unless the two clocks are an hour apart.
 */
const ABANDONED_MS = 3_600_000;

/**
 * What a waiter has seen of a lock it cannot ask about (held elsewhere): the lock's state when it
 * last changed, and how long this process had waited then and has waited since (its own sleeps).
 */
interface Watch {
  state: string;
  since: number;
  waited: number;
}

/** The wait after attempt `attempt` (from 0): doubling from FIRST_WAIT_MS up to LONGEST_WAIT_MS. */
function waitMs(attempt: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** attempt);
}

/** The waits before attempt `attempts`, in all. */
function waitedBefore(attempts: number): number {
  let sum = 0;
  for (let attempt = 0; attempt < attempts; attempt++) sum += waitMs(attempt);
  return sum;
}

interface Owner {
  pid: number;
  host: string;
  token: string;
  /**
   * Where the pid means something (Linux): the boot and the pid namespace. A lock written by an
   * earlier boot or another container on this host names a pid of a different process here.
   */
  where?: string;
  /** When the holder started (Linux: ticks since boot), so a pid reused by another process is told apart. */
  started?: string;
}

/** What a lock guards, as its messages name it. */
export interface LockSubject {
  /** `the config file is locked by another cdata` */
  held: string;
  /** What to do when it stays held. */
  wait: string;
  /** The error for a lock that cannot be written (no space, no permission). */
  cannotWrite: (error: unknown) => UsageError;
  /**
   * The folder may be made again if it goes while the lock is waited on: an export's (an export
   * interrupted before its first commit removes the folder it made). Not the config's, which
   * store.ts makes 0700 itself.
   */
  remake?: boolean;
}

const CONFIG: Omit<LockSubject, 'cannotWrite'> = {
  held: 'the config file is locked by another cdata',
  wait: 'Try again in a moment.',
};

/**
 * Runs `work` holding the lock. `held()` says whether the lock is still this run's: a step that
 * must not happen without it (an export's commit) checks it first.
 */
export async function withLock<T>(
  lockPath: string,
  io: Pick<Io, 'sleep' | 'onInterrupt'>,
  work: (held: () => boolean) => Promise<T>,
  subject?: LockSubject,
): Promise<T> {
  const about = subject ?? { ...CONFIG, cannotWrite: (error: unknown) => cannotWriteIn(dirname(lockPath), error) };
  const owner: Owner = { ...ownIdentity(), host: hostname(), token: randomBytes(8).toString('hex') };
  await acquire(lockPath, owner, io, about);
  const unregister = io.onInterrupt(() => release(lockPath, owner));
  const heartbeat = setInterval(() => refresh(lockPath, owner), STALE_AFTER_MS / 4);
  heartbeat.unref();
  try {
    return await work(() => readOwner(lockPath)?.token === owner.token);
  } finally {
    clearInterval(heartbeat);
    unregister();
    release(lockPath, owner);
  }
}

async function acquire(lockPath: string, owner: Owner, io: Pick<Io, 'sleep'>, subject: LockSubject): Promise<void> {
  const watch: Watch = { state: '', since: 0, waited: 0 };
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, owner, subject)) return;
    if (takeOverIfStale(lockPath, watch)) continue;
    if (attempt >= ATTEMPTS) {
      const holder = readOwner(lockPath);
      const elsewhere = holder !== undefined && !isHere(holder);
      if (!elsewhere || attempt >= FOREIGN_ATTEMPTS) {
        const where = elsewhere && holder.host === hostname() ? ', in another container, pid namespace or boot' : '';
        throw new UsageError(
          `${subject.held}${holder ? ` (pid ${holder.pid} on ${holder.host}${where})` : ''}: ${lockPath}`,
          { hint: `${subject.wait} If no other cdata is running, remove the lock file: rm '${lockPath}'` },
        );
      }
    }
    const ms = waitMs(attempt);
    await io.sleep(ms);
    watch.waited += ms;
  }
}

/**
 * True when the lock is now ours; false when someone holds it. Other failures are reported. The
 * owner is written to a file of our own first, which is then hard-linked as the lock (link fails
 * if the lock exists, as O_EXCL does): so the lock never exists without its owner. Created empty
 * and written after, a kill or a full disk in between left an empty lock that every later cdata
 * waited on, its holder unknown, until it aged out.
 */
function tryCreate(lockPath: string, owner: Owner, subject: LockSubject): boolean {
  const mine = `${lockPath}.${owner.token}`; // see isLockLeftover
  try {
    writeFileSync(mine, JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
    linkSync(mine, lockPath);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT' && existsSync(dirname(lockPath))) return false; // ours removed as a leftover by the holder: again
    // The folder went while this one waited: an export interrupted before its first commit removes
    // the folder it made (plan.ts). The waiter had passed the folder's checks: it makes it again.
    if (code === 'ENOENT' && subject.remake) {
      try {
        makeFolders(dirname(lockPath));
      } catch (again) {
        throw subject.cannotWrite(again);
      }
      return false;
    }
    if (code !== undefined && NO_HARD_LINKS.has(code) && existsSync(mine))
      return createDirectly(lockPath, owner, subject);
    throw subject.cannotWrite(error);
  } finally {
    rmSync(mine, { force: true });
  }
}

/** What link() answers where the filesystem has no hard links (FAT, some network and FUSE ones). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Without hard links: created empty (O_EXCL), then written; removed again if the write fails. */
function createDirectly(lockPath: string, owner: Owner, subject: LockSubject): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw subject.cannotWrite(error);
  }
  try {
    try {
      writeFileSync(fd, JSON.stringify(owner)); // loops over short writes
    } finally {
      closeSync(fd); // may report a deferred write error too (NFS)
    }
  } catch (error) {
    rmSync(lockPath, { force: true });
    throw subject.cannotWrite(error);
  }
  return true;
}

/**
 * Whether `name` is what a lock named `lock` can leave beside itself when killed: an owner file
 * not yet linked (see tryCreate) or a stale lock moved aside (see takeOverIfStale). The holder of
 * the lock may remove them (an export does, with its folder's other leftovers).
 */
export function isLockLeftover(name: string, lock: string): boolean {
  return name.startsWith(`${lock}.`);
}

/** Keeps a lock held for long (an export's) from looking stale; only while it is still ours. */
function refresh(lockPath: string, owner: Owner): void {
  try {
    if (readOwner(lockPath)?.token === owner.token) utimesSync(lockPath, new Date(), new Date());
  } catch {
    // Gone or unreadable: the next acquire by anyone judges it as it finds it.
  }
}

/**
 * Removes a stale lock and returns true. The lock is first renamed to a name of our own, so of
 * two processes that both judged it stale only one removes it; if what we renamed turns out to be
 * a fresh lock someone took in between, it is put back.
 */
function takeOverIfStale(lockPath: string, watch: Watch): boolean {
  const seen = readOwner(lockPath);
  if (!isStale(lockPath, seen, watch)) return false;
  const aside = `${lockPath}.${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // gone already: someone else took it over; try again
  }
  const taken = readOwner(aside);
  if (seen && taken && taken.token !== seen.token) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // A third writer created the lock in the instant it was moved. That needs a stale lock and
      // three writers at once; the two holders' writes are each still whole (atomic rename).
    }
  }
  rmSync(aside, { force: true });
  return true;
}

export function cannotWriteIn(folder: string, error: unknown): UsageError {
  return new UsageError(`cannot write in the config folder ${folder}: ${errorMessage(error)}`, {
    cause: error,
    hint: 'cdata writes the config file and a lock file beside it: make the folder writable, or choose another with CDATA_CONFIG_DIR.',
  });
}

function isStale(lockPath: string, owner: Owner | undefined, watch: Watch): boolean {
  let stat: { mtimeMs: number; size: number };
  try {
    // After readOwner opened it: fresh attributes, on NFS too. The lock's own, never a symlink's
    // target's: cdata's locks are regular files, and a link planted there is judged as itself.
    stat = lstatSync(lockPath);
  } catch {
    return false; // released meanwhile: the next attempt creates it
  }
  // On this host, whether the holder is alive decides, not the lock's age: a holder stopped
  // (Ctrl-Z) or stalled on a slow disk for longer than its refresh must keep it, or a second
  // export would take it and remove the first one's generation under it.
  if (owner !== undefined && isHere(owner)) {
    if (!isAlive(owner.pid)) return true;
    // Alive, but another process: the holder died and its pid was given again (pid 1 of the
    // next container, a pid after a reboot whose boot id could not be read).
    const started = owner.started === undefined ? undefined : startedOf(owner.pid);
    return started !== undefined && started !== owner.started;
  }
  // File ages are real time: the lock's mtime against the real clock, never an injected one.
  const age = Date.now() - stat.mtimeMs;
  // No owner to read (half written where there are no hard links, or unreadable): by its age.
  if (owner === undefined) return age > STALE_AFTER_MS;
  // Elsewhere: whether it changes while this one waits. Its age would compare the holder's clock
  // (which stamped the refresh) with this host's: one 10 s ahead took a live export's lock.
  if (age > ABANDONED_MS) return true;
  const state = `${stat.mtimeMs} ${stat.size} ${owner.token}`;
  if (watch.state !== state) Object.assign(watch, { state, since: watch.waited });
  return watch.waited - watch.since >= STALE_AFTER_MS;
}

/** Whether the owner's pid is one this process can look up: the same host, boot and pid namespace. */
const isHere = (owner: Owner): boolean => owner.host === hostname() && sameWhere(owner);

/** Whether the owner's pid names a process of this boot and pid namespace (unknown: assumed so). */
function sameWhere(owner: Owner): boolean {
  const { where } = ownIdentity();
  return owner.where === undefined || where === undefined || owner.where === where;
}

let identity: Pick<Owner, 'pid' | 'where' | 'started'> | undefined;

/** This process as a lock records it: its pid and, on Linux, where the pid holds and when it started. */
export function ownIdentity(): Pick<Owner, 'pid' | 'where' | 'started'> {
  if (identity?.pid === process.pid) return identity;
  let where: string | undefined;
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    where = `${boot} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    // Not Linux, or /proc hidden: the pid alone is judged.
  }
  identity = { pid: process.pid, where, started: startedOf(process.pid) };
  return identity;
}

/** A process's start time (field 22 of /proc/PID/stat, after the command name's parentheses). */
function startedOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM'; // exists, owned by another user
  }
}

/** More than an owner ever takes (pid, host, token, where, start time). */
const MAX_OWNER_BYTES = 64 * 1024;

/** The lock's owner, or undefined while it is being written or when it is not ours to read. */
function readOwner(lockPath: string): Owner | undefined {
  try {
    // A regular file of a size an owner has, or nothing: a FIFO planted as the lock would hang the
    // read (deaf to signals), a link to /dev/zero grow it without end.
    const owner = JSON.parse(readRegularFile(lockPath, MAX_OWNER_BYTES).bytes.toString('utf8')) as Partial<Owner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string') {
      const { pid, host, token, where, started } = owner;
      return {
        pid,
        host,
        token,
        where: typeof where === 'string' ? where : undefined,
        started: typeof started === 'string' ? started : undefined,
      };
    }
  } catch {
    // Missing, half written or not JSON: judged by age alone.
  }
  return undefined;
}

function release(lockPath: string, owner: Owner): void {
  // Only our own lock: if it was taken over as stale, the file is now someone else's.
  if (readOwner(lockPath)?.token === owner.token) rmSync(lockPath, { force: true });
}
