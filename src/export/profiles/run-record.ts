// DIR/run.json: what an `export --profiles` run did, for whoever watches the runs: each profile's
// status, exit code, rows and time, and the run's exit code. Written atomically when the run
// ends (each profile's own folder holds its manifest, as a single export's does). A run of one
// shard writes DIR/run-I-of-N.json instead, so N shards exporting into one folder each keep
// their own record. docs/many-profiles.md describes every field.
import { join } from 'node:path';
import { readdirSync, rmSync } from 'node:fs';
import { isLockLeftover, type LockSubject, withLock } from '../../io/lock.js';
import { cannotWrite } from '../../output/sink.js';
import { EXIT } from '../../core/errors.js';
import { writeFileAtomic } from '../../io/atomic.js';
import type { Io } from '../../io/index.js';
import type { ChangeCounts } from '../changes.js';
import type { Manifest, ResourceFailed } from '../manifest.js';
import type { Shard } from './shard.js';

/** An export that committed, but lost rows at the API's 200-row cap (docs/exports.md). */
export const GAP_EXIT = 9;

/**
 * ok: exported (exit 0); gap: exported, with rows lost at the cap (exit 9); failed: its export
 * failed, wholly or in part (the others' exit codes); skipped: not started, as its API host had
 * refused too many keys in this run.
 */
export type ProfileStatus = 'ok' | 'gap' | 'failed' | 'skipped';

export interface ProfileError {
  /** The list it failed on; null when the export failed as a whole (no key, the folder locked). */
  resource: string | null;
  message: string;
  httpStatus: number | null;
  correlationId: string | null;
}

export interface ProfileRun {
  profile: string;
  status: ProfileStatus;
  /** What `cdata -p PROFILE export` would have exited with; null when skipped (nothing ran). */
  exitCode: number | null;
  /** Its folder, inside the run's. */
  dir: string;
  baseUrl: string | null;
  /** Rows in the files this run wrote (a failed list writes none); null when skipped. */
  rows: number | null;
  /** Rows added, changed and removed since the previous export, over its lists; null when every list was a baseline or failed. */
  changes: ChangeCounts | null;
  /** The lists that failed. */
  failed: string[];
  /** Why it failed or was skipped (the first failure); null otherwise. */
  error: ProfileError | null;
  durationMs: number;
}

export interface RunRecord {
  version: 1;
  startedAt: string;
  durationMs: number;
  dir: string;
  /** --profiles as given; null for --all-profiles. */
  selection: string | null;
  shard: Shard | null;
  concurrency: number;
  ok: boolean;
  exitCode: number;
  counts: Record<ProfileStatus, number>;
  profiles: ProfileRun[];
}

/** 10 when any profile failed or was skipped; else 9 when one lost rows at the cap; else 0. */
export function runExitCode(profiles: readonly ProfileRun[]): number {
  if (profiles.some((p) => p.status === 'failed' || p.status === 'skipped')) return EXIT.profilesFailed;
  return profiles.some((p) => p.status === 'gap') ? GAP_EXIT : EXIT.ok;
}

/** A profile's entry from the manifest its export committed. */
export function fromManifest(manifest: Manifest, dir: string, durationMs: number): ProfileRun {
  const failures = manifest.resources.filter((r): r is ResourceFailed => r.status === 'error');
  let rows = 0;
  let changes: ChangeCounts | null = null;
  for (const entry of manifest.resources) {
    if (entry.status !== 'ok') continue;
    rows += entry.rows;
    if (entry.changes === null) continue;
    changes ??= { added: 0, changed: 0, removed: 0 };
    changes.added += entry.changes.added;
    changes.changed += entry.changes.changed;
    // A list whose removals are unknown (truncated) makes the sum unknown too.
    changes.removed =
      changes.removed === null || entry.changes.removed === null ? null : changes.removed + entry.changes.removed;
  }
  const [first] = failures;
  const status: ProfileStatus =
    manifest.exitCode === EXIT.ok ? 'ok' : manifest.exitCode === GAP_EXIT ? 'gap' : 'failed';
  return {
    profile: manifest.profile,
    status,
    exitCode: manifest.exitCode,
    dir,
    baseUrl: manifest.baseUrl,
    rows,
    changes,
    failed: failures.map((f) => f.resource),
    error: first ? errorOf(first) : null,
    durationMs,
  };
}

function errorOf(failure: ResourceFailed): ProfileError {
  const { message, httpStatus, correlationId } = failure.error;
  return { resource: failure.resource, message, httpStatus, correlationId };
}

export function recordName(shard: Shard | undefined): string {
  return shard === undefined ? 'run.json' : `run-${shard.index}-of-${shard.count}.json`;
}

/**
 * Runs `work` holding DIR's lock for this run's record (one per shard): a second run into DIR
 * waits a few seconds, then exit 2. Without it, two overlapping runs (a cron line whose run
 * outlasts its interval) each failed the profiles whose folders the other held, and the later
 * one's run.json replaced the other's.
 */
export function withRunLock<T>(
  dir: string,
  shard: Shard | undefined,
  io: Pick<Io, 'sleep' | 'onInterrupt'>,
  work: () => Promise<T>,
): Promise<T> {
  const name = runLockName(shard);
  const lock = join(dir, name);
  const subject: LockSubject = {
    held: `another cdata export --profiles${shard ? ` --shard ${shard.index}/${shard.count}` : ''} is running into ${dir}`,
    wait: 'Let it finish, then run this export again; a schedule should not start a run before the last one ends.',
    cannotWrite: (error) => cannotWrite(lock, error),
    remake: true,
  };
  return withLock(
    lock,
    io,
    async () => {
      // What a killed run's lock left (its owner file, a stale lock moved aside): this run's to clear.
      for (const left of readdirSync(dir).filter((entry) => isLockLeftover(entry, name)))
        rmSync(join(dir, left), { force: true });
      return work();
    },
    subject,
  );
}

/** `..run.lock`, `..run-2-of-4.lock`: the lock of the run whose record recordName names. */
function runLockName(shard: Shard | undefined): string {
  return `..${recordName(shard).replace(/\.json$/, '')}.lock`;
}

/**
 * The entry of DIR that marks it an export --profiles run's folder: a run's record, or the lock
 * of a run under way (its first has no record yet). Undefined for any other folder.
 */
export function runFolderMark(dir: string): string | undefined {
  return readdirSync(dir).find((name) => isRecordName(name) || /^\.\.run(?:-\d+-of-\d+)?\.lock$/.test(name));
}

/** Whether a file's name is one recordName gives: the folder holds an export --profiles run. */
function isRecordName(name: string): boolean {
  return /^run(?:-\d+-of-\d+)?\.json$/.test(name);
}

export async function writeRunRecord(
  dir: string,
  shard: Shard | undefined,
  record: RunRecord,
  io: Pick<Io, 'onInterrupt'>,
): Promise<string> {
  const path = join(dir, recordName(shard));
  await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`, io);
  return path;
}
