// What an export says when it ends or is interrupted. Each failure is said once: lists that
// failed alike (a revoked key fails all eight) share one line with their count and one hint,
// rather than eight identical lines. At a terminal, a closing line says how many lists were
// written, which failed, and what was kept of them; an interrupt, what the folder still holds.
import type { Previous, ResourceEntry } from './manifest.js';
import { MANIFEST_FILE } from './manifest.js';

/** A list's failure, in the words that report it (already without the key). */
export interface SaidFailure {
  resource: string;
  /** What went wrong, without the `(HTTP …)` suffix. */
  message: string;
  /** ` (HTTP 401)`: the part of the suffix that failures alike share; '' without an answer. */
  status: string;
  /** The message with its whole suffix, correlation id included: a lone failure's line. */
  full: string;
  hint: string | undefined;
}

/** The failures grouped by what they say, in the order each was first met. */
export function groupFailures<T extends SaidFailure>(failures: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const failure of failures) {
    const key = JSON.stringify([failure.message, failure.status, failure.hint ?? null]);
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  return [...groups.values()];
}

/**
 * A group's `error:` line and its hint. One list: its name and the whole message, correlation id
 * included. Several: their names and count, the shared message and status (each correlation id
 * is in the manifest and the JSON lines).
 */
export function groupLines(group: readonly SaidFailure[]): string[] {
  const [first] = group;
  if (!first) return [];
  const error =
    group.length === 1
      ? `error: ${first.resource}: ${first.full}`
      : `error: ${group.map((f) => f.resource).join(', ')} (${group.length} lists): ${first.message}${first.status}`;
  return first.hint === undefined ? [error] : [error, `hint: ${first.hint}`];
}

/** The closing line at a terminal. */
export function closingLine(resources: readonly ResourceEntry[], dir: string): string {
  const failed = resources.filter((entry) => entry.status === 'error');
  const lists = (n: number) => `${n} list${n === 1 ? '' : 's'}`;
  if (failed.length === 0) return `exported ${lists(resources.length)} to ${dir} (see ${MANIFEST_FILE})`;
  const kept = failed.filter((entry) => entry.kept !== null).map((entry) => entry.resource);
  const keeping =
    kept.length === failed.length
      ? 'earlier files kept'
      : kept.length === 0
        ? 'no earlier files to keep'
        : `earlier files kept for ${kept.join(', ')}`;
  const names = failed.map((entry) => entry.resource).join(', ');
  return `${resources.length - failed.length} of ${lists(resources.length)} written to ${dir}; ${failed.length} failed: ${names}; ${keeping}`;
}

/** The last line of an export interrupted before its commit: the folder is as it was. */
export function interruptedLine(dir: string, previous: Previous): string {
  const files = previous.byFile.size;
  return files === 0
    ? `interrupted: nothing was written to ${dir}`
    : `interrupted: nothing in ${dir} was changed; its previous export (${files} file${files === 1 ? '' : 's'} and ${MANIFEST_FILE}) is kept`;
}
