// What the last export in a folder recorded, for `cdata changes`: its manifest and its changes,
// both read from the one generation ..data names (resolved once, and changes.ndjson opened then,
// so the two always agree even while another export commits). A generation an export removes
// between the resolving and the reading is resolved again. The changes are read a line at a
// time, a few MiB at a time: memory follows the largest line, not the file's size.
import { closeSync, fstatSync, lstatSync, readlinkSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { errorCode, errorMessage, UsageError } from '../core/errors.js';
import { openRegularFile, readRegularFile } from '../io/read-file.js';
import { CHANGES_FILE, parseChange, type ChangesFile } from './changes-file.js';
import type { Change } from './changes.js';
import type { Unseen } from './coverage.js';
import { DATA, isGeneration } from './layout.js';
import { LARGE_BODY_BYTES } from '../client/sizes.js';
import { MANIFEST_FILE, MAX_MANIFEST_BYTES, type Manifest } from './manifest.js';

/**
 * A line of changes.ndjson holds one row, or one row and the old and new values of its fields:
 * an answer is 16 MiB at most, and escapes can make each at most six times as long written out.
 */
export const MAX_CHANGE_LINE_BYTES = 3 * 6 * 16 * 1024 * 1024;

/** What a manifest says of each list, as far as `cdata changes` needs it. */
export type ListOutcome = Pick<Manifest['resources'][number], 'resource' | 'status' | 'changes'> & {
  gap?: boolean | null;
  unseen?: Unseen | null;
  /** A failed list's earlier export still in place; none when it never had one. */
  kept?: unknown;
};

export type LastExport =
  /** No export in the folder. */
  | { kind: 'none' }
  /** An export by a cdata before change detection: no changes recorded. */
  | { kind: 'unrecorded'; exportedAt: string | undefined }
  | {
      kind: 'recorded';
      exportedAt: string | undefined;
      lists: ListOutcome[];
      changes: ChangeReader;
      large: () => boolean;
    };

/** The changes `keep` keeps, read once, in the file's order, a batch at a time. */
export type ChangeReader = (keep: (change: Change) => boolean) => AsyncGenerator<Change[]>;

export function readLastExport(dir: string): LastExport {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    // A path that cannot be looked up (a file on the way, a link loop, too long, no permission).
    throw new UsageError(`cannot read ${dir}: ${errorMessage(error)}`, {
      hint: 'Give the --dir an export was written to.',
    });
  }
  if (!stats?.isDirectory())
    throw new UsageError(`${dir} is not a folder: no export to read changes from`, {
      hint: 'Give the --dir an export was written to.',
    });
  // A generation a concurrent export removed after we resolved ..data: resolved again, a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      return readFrom(dir);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw unreadable(dir, error);
      if (attempt === 3)
        throw unreadable(dir, new Error(`a file of its last export is missing: ${missingName(error)}`));
    }
  }
}

function readFrom(dir: string): LastExport {
  const generation = currentGeneration(dir);
  const folder = generation === undefined ? dir : join(dir, generation);
  const manifest = read(join(folder, MANIFEST_FILE), MAX_MANIFEST_BYTES, generation !== undefined);
  if (manifest === undefined) return { kind: 'none' };
  const { exportedAt, resources, recorded } = parseManifest(manifest);
  // Before generations, or in a generation an older cdata wrote, there is no changes.ndjson; one
  // whose manifest names it has it, unless the generation has just gone.
  const fd = generation === undefined ? undefined : openChanges(join(folder, CHANGES_FILE), recorded !== undefined);
  if (fd === undefined) return { kind: 'unrecorded', exportedAt };
  const seen = { bytes: 0, since: 0 };
  return {
    kind: 'recorded',
    exportedAt,
    lists: resources,
    changes: (keep) => batches(fd, join(dir, CHANGES_FILE), keep, seen, recorded),
    // Whether the lines read since it was last asked came to more than a large answer (transport.ts).
    large: () => {
      const large = seen.bytes - seen.since >= LARGE_BODY_BYTES;
      seen.since = seen.bytes;
      return large;
    },
  };
}

/** Which file of the export could not be found, by its name in DIR (not the generation's path). */
function missingName(error: unknown): string {
  const path = (error as { path?: unknown }).path;
  return typeof path === 'string' ? basename(path) : 'a file its manifest names';
}

/** changes.ndjson opened (a regular file only: never a FIFO or a device); undefined when missing and not required. */
function openChanges(path: string, required: boolean): number | undefined {
  try {
    return openRegularFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' && !required) return undefined;
    if (errorCode(error) === 'ENOENT') throw error;
    throw new Error(`${path}: ${errorMessage(error)}`);
  }
}

/**
 * The changes `keep` keeps, a few MiB of them at a time (never one list's whole, which may be
 * hundreds of MB); at a line that is not a change cdata wrote, an error naming it.
 */
async function* batches(
  fd: number,
  path: string,
  keep: (change: Change) => boolean,
  seen: { bytes: number },
  /** The lines and bytes the manifest recorded; undefined: not known. */
  expected: Recorded,
): AsyncGenerator<Change[]> {
  let batch: Change[] = [];
  let size = 0;
  let number = 0;
  try {
    for await (const line of lines(fd, path)) {
      number++;
      seen.bytes += line.length;
      let change: Change;
      try {
        change = parseChange(line);
      } catch (error) {
        // The changes before it go first: where the output streams, it ends there (docs/exports.md).
        if (batch.length > 0) yield batch;
        throw unreadable(dirOf(path), new Error(`${path}: line ${number} ${errorMessage(error)}`));
      }
      if (!keep(change)) continue;
      batch.push(change);
      size += line.length;
      if (size >= BATCH_BYTES) {
        yield batch;
        batch = [];
        size = 0;
      }
    }
    if (batch.length > 0) yield batch;
    // Every line read, each a change: the file must be the whole of what the export wrote, not
    // cut short (or grown) at a line's end. Said after the changes before it, as a bad line is.
    const bytes = fstatSync(fd).size;
    if (expected !== undefined && (number !== expected.lines || bytes !== expected.bytes))
      throw unreadable(
        dirOf(path),
        new Error(
          `${path} holds ${number} lines (${bytes} bytes), not the ${expected.lines} (${expected.bytes} bytes) its manifest recorded`,
        ),
      );
  } finally {
    closeSync(fd);
  }
}

/** How much of changes.ndjson one read takes. */
const READ_CHUNK_BYTES = 256 * 1024;

/** How much of changes.ndjson a batch holds at most (past one line). */
const BATCH_BYTES = 1024 * 1024;

/** The file's lines (without their newline), each bounded. */
async function* lines(fd: number, path: string): AsyncGenerator<string> {
  let partial: Buffer[] = [];
  let size = 0;
  // Read with readSync, a chunk at a time: a stream on an fd the caller closes (at a line that is
  // not a change) can still have a read in flight, landing in whatever file next gets that fd.
  const buffer = Buffer.alloc(READ_CHUNK_BYTES);
  for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
    const chunk = Buffer.from(buffer.subarray(0, read));
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      partial.push(chunk.subarray(start, end));
      yield Buffer.concat(partial).toString('utf8');
      partial = [];
      size = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      partial.push(chunk.subarray(start));
      size += chunk.length - start;
      if (size > MAX_CHANGE_LINE_BYTES)
        throw unreadable(
          dirOf(path),
          new Error(`${path}: a line is longer than ${MAX_CHANGE_LINE_BYTES / 1024 / 1024} MiB`),
        );
    }
  }
  if (size > 0) yield Buffer.concat(partial).toString('utf8');
}

const dirOf = (path: string) => path.slice(0, path.length - CHANGES_FILE.length - 1);

/** The generation ..data names; undefined where there is none (no export, or an older cdata's plain files). */
function currentGeneration(dir: string): string | undefined {
  const path = join(dir, DATA);
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return undefined;
  const target = stats.isSymbolicLink() ? readlinkSync(path) : undefined;
  if (target === undefined || !isGeneration(target))
    throw new Error(`${path} is not cdata's (a link to one of its ..YYYY_MM_DD_… folders)`);
  return target;
}

/**
 * The file's text; undefined when it is missing and `required` is false. A missing file in a
 * generation means that generation has just gone (ENOENT: resolved again).
 */
function read(path: string, maxBytes: number, required: boolean): string | undefined {
  try {
    return readRegularFile(path, maxBytes).bytes.toString('utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT' && !required) return undefined;
    if (errorCode(error) === 'ENOENT') throw error;
    throw new Error(`${path}: ${errorMessage(error)}`);
  }
}

/** What the manifest says of changes.ndjson: its lines and bytes; undefined when it names none. */
type Recorded = { lines: number; bytes: number } | undefined;

function parseManifest(text: string): { exportedAt: string | undefined; resources: ListOutcome[]; recorded: Recorded } {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new Error(`its ${MANIFEST_FILE} is not JSON: ${errorMessage(error)}`);
  }
  const { exportedAt, resources, changesFile } = (manifest ?? {}) as Partial<Manifest>;
  if (!Array.isArray(resources)) throw new Error(`its ${MANIFEST_FILE} is not a manifest cdata wrote`);
  const lists = (resources as unknown[]).filter(
    (entry): entry is ListOutcome =>
      typeof entry === 'object' && entry !== null && typeof (entry as ListOutcome).resource === 'string',
  );
  return {
    exportedAt: typeof exportedAt === 'string' ? exportedAt : undefined,
    resources: lists,
    recorded: recordedOf(changesFile),
  };
}

/** The manifest's word on changes.ndjson; one whose counts are not numbers is not cdata's. */
function recordedOf(changesFile: unknown): Recorded {
  if (changesFile === undefined) return undefined;
  const { lines, bytes } = (changesFile ?? {}) as Partial<ChangesFile>;
  if (!Number.isSafeInteger(lines) || !Number.isSafeInteger(bytes))
    throw new Error(`its ${MANIFEST_FILE} is not a manifest cdata wrote (changesFile)`);
  return { lines: lines!, bytes: bytes! };
}

function unreadable(dir: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  return new UsageError(`cannot read the changes in ${dir}: ${errorMessage(error)}`, {
    hint: `cdata export writes them; the next export into ${dir} writes them afresh.`,
    cause: error,
  });
}
