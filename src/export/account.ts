// The manifest's account of a generation: this run's lists (written, or failed with the earlier
// file each kept), the lists it did not ask for (`earlier`), and every other file carried along
// (`history`), each described as the manifest that first listed it did.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Generation } from './generation.js';
import type { Manifest, Previous, ResourceEntry, ResourceFailed, ResourceOk, ResourceWritten } from './manifest.js';

export type Failure = Pick<ResourceFailed, 'resource' | 'file' | 'error'>;

export interface Account {
  resources: ResourceEntry[];
  earlier: Manifest['earlier'];
  history: Manifest['history'];
}

/**
 * `outcomes` in export order: an entry for a file written, or a failure; `carried`: the names
 * carried into the generation from the previous one.
 */
export function account(
  outcomes: (ResourceWritten | Failure)[],
  carried: readonly string[],
  previous: Previous,
  generation: Generation,
): Account {
  const isCarried = new Set(carried.filter((name) => !name.startsWith('.')));
  const described = new Set<string>();
  const carriedEntry = (entry: ResourceOk | undefined) => {
    if (entry === undefined || !isCarried.has(entry.file)) return undefined;
    described.add(entry.file);
    return entry;
  };
  const resources = outcomes.map((outcome): ResourceEntry => {
    if ('status' in outcome) return outcome;
    const kept = carriedEntry(previous.latest.get(outcome.resource));
    return { ...outcome, status: 'error', changes: null, gap: null, unseen: null, kept: kept ? keptFile(kept) : null };
  });
  const asked = new Set(outcomes.map((outcome) => outcome.resource));
  const earlier = [...previous.latest.values()].filter(
    (entry) => !asked.has(entry.resource) && carriedEntry(entry) !== undefined,
  );
  const history = [...isCarried]
    .filter((name) => !described.has(name))
    .sort()
    .map((name) => previous.byFile.get(name) ?? unknownFile(generation, name));
  return { resources, earlier, history };
}

/** An earlier file's entry as a failed list's `kept`: all of it but whose and what it is. */
function keptFile({ resource: _resource, status: _status, ...kept }: ResourceOk): NonNullable<ResourceFailed['kept']> {
  return kept;
}

/** A file no manifest described: its size and SHA-256 are all that can be said. */
function unknownFile(generation: Generation, name: string): Manifest['history'][number] {
  const bytes = readFileSync(join(generation.path, name));
  return { file: name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
