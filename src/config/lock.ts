// A lock file beside the config file, so two cdata processes changing the config at once neither
// corrupt it nor lose an update: each holds the lock while it re-reads, changes and rewrites.
// Created with O_EXCL (atomic on every local filesystem); retried with backoff; a lock left by a
// process that died (same host, pid gone) or older than any write takes is stale and taken over.
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
// The lock records and checks processes by pid: not part of Io, as nothing a test would fake.
import process from 'node:process';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';

/** A write holds the lock for milliseconds; one held this long belongs to a stuck process. */
export const STALE_AFTER_MS = 10_000;
const FIRST_WAIT_MS = 5;
const LONGEST_WAIT_MS = 100;
/** About five seconds of waiting in all, with real sleeps. */
const ATTEMPTS = 60;

interface Owner {
  pid: number;
  host: string;
  token: string;
}

export async function withLock<T>(lockPath: string, io: Pick<Io, 'sleep' | 'onInterrupt'>, work: () => Promise<T>): Promise<T> {
  const owner: Owner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  await acquire(lockPath, owner, io);
  const unregister = io.onInterrupt(() => release(lockPath, owner));
  try {
    return await work();
  } finally {
    unregister();
    release(lockPath, owner);
  }
}

async function acquire(lockPath: string, owner: Owner, io: Pick<Io, 'sleep'>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, owner)) return;
    if (takeOverIfStale(lockPath)) continue;
    if (attempt >= ATTEMPTS) {
      const holder = readOwner(lockPath);
      throw new UsageError(`the config file is locked by another cdata${holder ? ` (pid ${holder.pid} on ${holder.host})` : ''}: ${lockPath}`, {
        hint: `Try again in a moment. If no other cdata is running, remove the lock file: rm '${lockPath}'`,
      });
    }
    await io.sleep(Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** attempt));
  }
}

/** True when the lock is now ours; false when someone holds it. Other failures are reported. */
function tryCreate(lockPath: string, owner: Owner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotWriteIn(dirname(lockPath), error);
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes a stale lock and returns true. The lock is first renamed to a name of our own, so of
 * two processes that both judged it stale only one removes it; if what we renamed turns out to be
 * a fresh lock someone took in between, it is put back.
 */
function takeOverIfStale(lockPath: string): boolean {
  const seen = readOwner(lockPath);
  if (!isStale(lockPath, seen)) return false;
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
  return new UsageError(`cannot write in the config folder ${folder}: ${(error as Error).message}`, {
    cause: error,
    hint: 'cdata writes the config file and a lock file beside it: make the folder writable, or choose another with CDATA_CONFIG_DIR.',
  });
}

function isStale(lockPath: string, owner: Owner | undefined): boolean {
  let age: number;
  try {
    // File ages are real time: the lock's mtime against the real clock, never an injected one.
    age = Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return false; // released meanwhile: the next attempt creates it
  }
  if (age > STALE_AFTER_MS) return true;
  return owner !== undefined && owner.host === hostname() && !isAlive(owner.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

/** The lock's owner, or undefined while it is being written or when it is not ours to read. */
function readOwner(lockPath: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<Owner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string') return owner as Owner;
  } catch {
    // Missing, half written or not JSON: judged by age alone.
  }
  return undefined;
}

function release(lockPath: string, owner: Owner): void {
  // Only our own lock: if it was taken over as stale, the file is now someone else's.
  if (readOwner(lockPath)?.token === owner.token) rmSync(lockPath, { force: true });
}
