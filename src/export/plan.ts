// What `cdata export` will do, checked in full before any request: the resources, the format,
// the limit, the folder (created, and writable) and the file names.
import { accessSync, constants, rmdirSync, statSync } from 'node:fs';
import type { Io } from '../io/index.js';
import { makeFolders, PATH_MAX } from '../io/atomic.js';
import { GENERATION_NAME_LENGTH } from './layout.js';
import { MANIFEST_FILE } from './manifest.js';
import { CHANGES_FILE } from './changes-file.js';
import { stateFile } from './state.js';
import { join, resolve } from 'node:path';
import type { Settings } from '../config/resolve.js';
import { EXPORT_FORMATS } from '../config/schema.js';
export { EXPORT_FORMATS };
import type { Limit } from '../core/params.js';
import { parseChoice } from '../core/parse.js';
import { findEndpoint, LIST_ENDPOINTS, type Endpoint } from '../core/endpoints.js';
import { errorCode, errorMessage, UsageError, hintOf } from '../core/errors.js';
import { didYouMean } from '../core/similar.js';

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportItem {
  endpoint: Endpoint;
  /** File name inside the folder, e.g. `tenders.csv` or `tenders-2026-11-22T0600Z.csv`. */
  file: string;
  path: string;
}

export interface ExportPlan {
  dir: string;
  format: ExportFormat;
  limit: Limit;
  items: ExportItem[];
}

/** What the command line asked for. */
export interface ExportRequest {
  dir: string;
  /** Named lists; none: every list. */
  resources: readonly string[];
  limit: Limit;
  stamp: boolean;
  /** --fields, which does not apply. */
  fields: string | undefined;
  output: Settings['output'];
}

export function planExport(request: ExportRequest, startedAt: number): ExportPlan {
  if (request.fields !== undefined)
    throw new UsageError("--fields does not apply to export: every file holds all of its resource's fields");
  const endpoints = listsNamed(request.resources);
  const format = exportFormat(request.output);
  const { limit } = request;
  const dir = resolve(request.dir);
  const stamp = request.stamp ? `-${fileStamp(startedAt)}` : '';
  const items = endpoints.map((endpoint) => {
    const file = `${endpoint.name}${stamp}.${format}`;
    return { endpoint, file, path: join(dir, file) };
  });
  checkLength(dir, items);
  return { dir, format, limit, items };
}

/**
 * Each file is written inside a generation folder (layout.ts): a folder whose path leaves no room
 * for that under the system's limit is refused before anything is made, not after the requests.
 */
function checkLength(dir: string, items: ExportItem[]): void {
  const names = [MANIFEST_FILE, CHANGES_FILE, ...items.flatMap((item) => [item.file, stateFile(item.endpoint.name)])];
  const longest = Math.max(...names.map((name) => Buffer.byteLength(name)));
  const needed = Buffer.byteLength(dir) + 1 + GENERATION_NAME_LENGTH + 1 + longest;
  if (needed > PATH_MAX) {
    throw new UsageError(
      `the export folder's path is too long: files in it would have paths of ${needed} bytes, past the system's limit of ${PATH_MAX}`,
      {
        hint: 'Choose a folder with a shorter path.',
      },
    );
  }
}

/** The named lists (aliases allowed, repeats ignored), or every list when none is named; `command` names who asks. */
export function listsNamed(requested: readonly string[], command = 'export'): Endpoint[] {
  if (requested.length === 0) return [...LIST_ENDPOINTS];
  const chosen: Endpoint[] = [];
  for (const name of requested) {
    const endpoint = findEndpoint(name);
    if (endpoint?.shape !== 'list') {
      const valid = LIST_ENDPOINTS.map((e) => e.name);
      throw new UsageError(
        `unknown resource '${name}' for ${command}; valid: ${valid.join(', ')}`,
        hintOf(didYouMean(name, valid)),
      );
    }
    if (!chosen.includes(endpoint)) chosen.push(endpoint);
  }
  return chosen;
}

/** -o/--json when given (csv, json, ndjson or tsv); csv otherwise, whatever the profile's output. */
function exportFormat(output: Settings['output']): ExportFormat {
  if (output.source !== 'flag' || output.value === undefined) return 'csv';
  return parseChoice(output.value, EXPORT_FORMATS, '--output for export');
}

/**
 * The export folder made (with its parents) and checked: a folder to write in and list. Called
 * once the key and base URL are known, so that a run that cannot start leaves no folder behind.
 */
export function prepareFolder(dir: string, io: Pick<Io, 'onInterrupt'>): void {
  let made: string[];
  try {
    made = makeFolders(dir);
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`cannot write to the export folder ${dir}: ${errorMessage(error)}`, { cause: error });
  }
  // The folder's generations are found by listing it: a drop-box folder (written, not listed)
  // cannot hold them. Said here, before any request, rather than found half-way.
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
  } catch (error) {
    throw new UsageError(
      `cannot export into ${dir}: it can be written but not listed (${errorCode(error) ?? 'EACCES'})`,
      {
        cause: error,
        hint: 'An export keeps its files in folders inside it, found by listing it: give the folder read and search permission (chmod u+rx), or choose another --dir.',
      },
    );
  }
  // Interrupted, the folders made here go again if still empty, deepest first: the last cleanups
  // to run (io.ts), once the lock and any generation are gone. A Ctrl-C leaves no empty folder.
  if (made.length > 0) io.onInterrupt(() => removeEmpty(made));
}

function removeEmpty(folders: readonly string[]): void {
  for (const folder of [...folders].reverse()) {
    try {
      rmdirSync(folder);
    } catch {
      return; // not empty (an export was committed), or not ours to remove: it and those above it stay
    }
  }
}

/** `2026-11-22T0600Z`: UTC, sortable, and free of the colons some filesystems refuse. */
export function fileStamp(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z`;
}
