// manifest.json: what the last export wrote, for whoever consumes the folder: when, from where
// (never the key), and per resource its file, rows, whether the API's cap was reached, the file's
// SHA-256, and ok or the error with its exit code. A failed resource keeps its previous file, and
// its entry says which earlier export that file came from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST_FILE = 'manifest.json';

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
}

export interface ResourceFailed {
  resource: string;
  status: 'error';
  file: string;
  error: { message: string; exitCode: number; httpStatus: number | null; correlationId: string | null };
  /** The earlier export whose file is still in place, when the previous manifest recorded one. */
  kept: Omit<ResourceOk, 'resource' | 'status'> | null;
}

export type ResourceEntry = ResourceOk | ResourceFailed;

export interface Manifest {
  version: 1;
  exportedAt: string;
  baseUrl: string;
  profile: string;
  format: string;
  limit: number;
  ok: boolean;
  exitCode: number;
  resources: ResourceEntry[];
}

/** The previous manifest's successful entries by resource; nothing when it is missing or unreadable. */
export function previousEntries(dir: string): Map<string, ResourceOk> {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Partial<Manifest>;
    const entries = new Map<string, ResourceOk>();
    for (const entry of manifest.resources ?? []) {
      if (entry.status === 'ok') entries.set(entry.resource, entry);
      else if (entry.kept) entries.set(entry.resource, { resource: entry.resource, status: 'ok', ...entry.kept });
    }
    return entries;
  } catch {
    return new Map();
  }
}
