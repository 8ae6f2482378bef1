// manifest.json: what the last export wrote, for whoever consumes the folder: when, from where
// (never the key), and per resource its file, rows, whether the API's cap was reached, the file's
// SHA-256, and ok or the error with its exit code. A failed resource keeps its previous file, and
// its entry says which earlier export that file came from; `earlier` lists the files of earlier
// exports that this one did not ask for (after `cdata export tenders`, the other lists' files).
import { existsSync, readFileSync } from 'node:fs';
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
  /** Where the file came from: the same as the manifest's for a file this export wrote, but a
   * file carried forward (`kept`, `earlier`) may be from another profile or API; null when a
   * manifest from before entries said so does not tell. */
  profile: string | null;
  baseUrl: string | null;
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
  /** Resources this export did not ask for whose files from earlier exports are still in the folder. */
  earlier: ResourceOk[];
}

export interface Previous {
  /** By resource, the file from an earlier export still in the folder (checked to exist). */
  entries: Map<string, ResourceOk>;
  /** The previous export ended with the key refused (exit 3) or the address locked out (exit 5). */
  keyRefused: boolean;
}

/** What the previous manifest says; nothing when it is missing or unreadable. */
export function readPrevious(dir: string): Previous {
  const entries = new Map<string, ResourceOk>();
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Partial<Manifest>;
  } catch {
    return { entries, keyRefused: false };
  }
  // Entries from before entries said where they came from: a file that manifest's export wrote
  // is from its profile and API; one it carried forward (kept, earlier) is from an unknown one.
  const written = { profile: manifest.profile ?? null, baseUrl: manifest.baseUrl ?? null };
  const unknown = { profile: null, baseUrl: null };
  const keep = (entry: ResourceOk) => {
    if (typeof entry.file === 'string' && existsSync(join(dir, entry.file))) entries.set(entry.resource, entry);
  };
  for (const entry of Array.isArray(manifest.earlier) ? manifest.earlier : []) keep({ ...unknown, ...entry });
  for (const entry of Array.isArray(manifest.resources) ? manifest.resources : []) {
    if (entry.status === 'ok') keep({ ...written, ...entry });
    else if (entry.kept) keep({ ...unknown, resource: entry.resource, status: 'ok', ...entry.kept });
  }
  return { entries, keyRefused: manifest.exitCode === 3 || manifest.exitCode === 5 };
}
