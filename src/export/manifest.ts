// manifest.json: what the export in the folder holds, for whoever consumes it: when, from where
// (never the key), and per resource its file, rows, whether the API's cap was reached, the file's
// SHA-256, ok or the error with its exit code, and how many rows changed since its previous
// export (changes.ndjson, which the manifest describes too, holds the changes themselves). A
// failed resource keeps its previous file, and its entry says which earlier export that file came
// from; `earlier` lists the files of earlier exports that this one did not ask for (after
// `cdata export tenders`, the other lists' files); `history` every other file still there (older
// --stamp files). The manifest is one file of the generation it describes (layout.ts), so it
// always agrees with the files beside it.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode, errorMessage, EXIT, UsageError } from '../core/errors.js';
import type { ChangesFile } from './changes-file.js';
import type { ChangeCounts } from './changes.js';
import type { Coverage } from './coverage.js';
import { isFileName } from './layout.js';

export const MANIFEST_FILE = 'manifest.json';
/** Far beyond any manifest cdata writes (~1 MB after years of daily --stamp exports). */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

export interface ResourceOk {
  resource: string;
  status: 'ok';
  file: string;
  rows: number;
  /** rows == limit: more may exist than the file holds. */
  truncated: boolean;
  sha256: string;
  bytes: number;
  exportedAt: string;
  /** Where the file came from: the same as the manifest's for a file this export wrote, but a
   * file carried forward (`kept`, `earlier`) may be from another profile or API; null when a
   * manifest from before entries said so does not tell. */
  profile: string | null;
  baseUrl: string | null;
}

/**
 * A list this export wrote: its file, what changed since its previous export (null: a baseline),
 * and whether rows were created past the cap since then (`gap`, `unseen`: coverage.ts).
 */
export type ResourceWritten = ResourceOk & { changes: ChangeCounts | null } & Coverage;

export interface ResourceFailed {
  resource: string;
  status: 'error';
  file: string;
  error: { message: string; exitCode: number; httpStatus: number | null; correlationId: string | null };
  /** A failed list has no changes; its next successful export compares with its last successful one. */
  changes: null;
  gap: null;
  unseen: null;
  /** The earlier export whose file is still in place, when the previous manifest recorded one. */
  kept: Omit<ResourceOk, 'resource' | 'status'> | null;
}

export type ResourceEntry = ResourceWritten | ResourceFailed;

/** A file no manifest described (it was lost or edited): known by its name, size and SHA-256 alone. */
export interface UnknownFile {
  file: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  version: 1;
  exportedAt: string;
  baseUrl: string;
  profile: string;
  format: string;
  limit: number;
  ok: boolean;
  exitCode: number;
  /** changes.ndjson, which this export wrote. */
  changesFile: ChangesFile;
  resources: ResourceEntry[];
  /** Resources this export did not ask for whose files from earlier exports are still in the folder. */
  earlier: ResourceOk[];
  /** Every other file of an earlier export still in the folder, as its manifest described it. */
  history: (ResourceOk | UnknownFile)[];
}

export interface Previous {
  /** By resource, the newest file an earlier export wrote for it. */
  latest: Map<string, ResourceOk>;
  /** By file name, every file the previous manifest describes. */
  byFile: Map<string, ResourceOk>;
  /** A list of the previous export failed with the key refused (exit 3) or the address locked out (exit 5). */
  keyRefused: boolean;
  /** When the previous export ran, as its manifest says (undefined: none, or not said). */
  exportedAt?: string | undefined;
}

/**
 * Whether the plain DIR/manifest.json (a folder from before generations) is one cdata wrote: a
 * JSON object of its version with its time and lists. Anything else there is someone's own file,
 * which an export must not take over (it would be carried into a generation and later pruned).
 */
export function plainManifestIsOurs(dir: string): boolean {
  const text = readManifest(join(dir, MANIFEST_FILE));
  if (text === undefined) return true;
  try {
    const manifest = JSON.parse(text) as Partial<Manifest> | null;
    return (
      typeof manifest === 'object' &&
      manifest !== null &&
      manifest.version === 1 &&
      typeof manifest.exportedAt === 'string' &&
      Array.isArray(manifest.resources)
    );
  } catch {
    return false;
  }
}

/** What the previous manifest says; nothing when it is missing or not a manifest. */
export function readPrevious(dir: string): Previous {
  const previous: Previous = { latest: new Map(), byFile: new Map(), keyRefused: false };
  const text = readManifest(join(dir, MANIFEST_FILE));
  if (text === undefined) return previous;
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(text) as Partial<Manifest>;
  } catch {
    return previous; // not JSON: a manifest that says nothing
  }
  if (typeof manifest !== 'object' || manifest === null) return previous;
  if (typeof manifest.exportedAt === 'string') previous.exportedAt = manifest.exportedAt;
  // Entries from before entries said where they came from: a file that manifest's export wrote
  // is from its profile and API; one it carried forward (kept, earlier) is from an unknown one.
  const written = { profile: manifest.profile ?? null, baseUrl: manifest.baseUrl ?? null };
  const unknown = { profile: null, baseUrl: null };
  // An entry describes its file; what changed concerns only the export that wrote it.
  const note = (
    {
      changes: _changes,
      gap: _gap,
      unseen: _unseen,
      ...entry
    }: ResourceOk & { changes?: unknown; gap?: unknown; unseen?: unknown },
    newest: boolean,
  ) => {
    if (!isFileName(entry.file) || typeof entry.resource !== 'string') return;
    previous.byFile.set(entry.file, entry);
    if (newest) previous.latest.set(entry.resource, entry);
  };
  for (const entry of listOf(manifest.history))
    if ((entry as ResourceOk).status === 'ok') note({ ...unknown, ...(entry as ResourceOk) }, false);
  for (const entry of listOf(manifest.earlier)) note({ ...unknown, ...entry }, true);
  for (const entry of listOf(manifest.resources)) {
    if (entry.status === 'ok') note({ ...written, ...entry }, true);
    else if (entry.kept) note({ ...unknown, resource: entry.resource, status: 'ok', ...entry.kept }, true);
  }
  // Any list refused tells it: the manifest's own code is the highest of its lists' (a 503 beside
  // the refusals hides them there).
  previous.keyRefused =
    refusedKey(manifest.exitCode) ||
    listOf(manifest.resources).some((entry) => entry.status === 'error' && refusedKey(entry.error?.exitCode));
  return previous;
}

/** The key refused (exit 3) or the address locked out (exit 5). */
export const refusedKey = (exitCode: unknown): exitCode is typeof EXIT.auth | typeof EXIT.rateLimited =>
  exitCode === EXIT.auth || exitCode === EXIT.rateLimited;

function listOf<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value.filter((entry) => typeof entry === 'object' && entry !== null) : [];
}

/**
 * The manifest's text; undefined when there is none. Opened without blocking and checked to be
 * a regular file of bounded size first: a FIFO put in its place once hung the export forever
 * (an open that waits for a writer, in a thread no signal reaches), /dev/zero read forever.
 */
function readManifest(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw notUsable(path, errorMessage(error));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notUsable(path, 'it is not a regular file');
    if (stats.size > MAX_MANIFEST_BYTES)
      throw notUsable(path, `it is larger than ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB`);
    const buffer = Buffer.alloc(stats.size);
    let filled = 0;
    for (let read = 1; read > 0 && filled < buffer.length; filled += read)
      read = readSync(fd, buffer, filled, buffer.length - filled, null);
    return buffer.toString('utf8', 0, filled);
  } finally {
    closeSync(fd);
  }
}

function notUsable(path: string, why: string): UsageError {
  return new UsageError(`cannot export: the previous manifest ${path} cannot be read: ${why}`, {
    hint: 'cdata reads it to know which earlier files to keep; move it away to start the folder afresh.',
  });
}
