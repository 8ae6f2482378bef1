// The export folder's layout, after the kubelet's AtomicWriter (pkg/volume/util/atomic_writer.go),
// so that one rename commits a whole export (docs/exports.md):
//
//   DIR/..data -> ..2026_11_22_06_00_41.3f9c1a7b0e     the current generation: one symlink
//   DIR/..2026_11_22_06_00_41.3f9c1a7b0e/              every file of the export, and its manifest
//   DIR/tenders.csv -> ..data/tenders.csv              one link per file, the names readers use
//   DIR/manifest.json -> ..data/manifest.json
//   DIR/..lock                                          while an export runs in DIR
//
// Every name of cdata's own starts with `..`: `ls` and globs such as `*.csv` skip it, and no list
// file can be called that. docs/exports.md ("How the folder is laid out") says what a reader sees.
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

export const DATA = '..data';
/** The link made beside DATA and renamed over it: the one step that commits. */
export const DATA_TEMP = '..data_tmp';
/** A link renamed over a plain file of an older cdata's export (adopt.ts). */
export const LINK_TEMP = '..link_tmp';
export const LOCK = '..lock';
/** What an export says when its lock was taken from it before it committed (generation.ts, folder.ts). */
export const LOST_LOCK = `this export no longer holds the folder's lock (${LOCK}): another export took it over; nothing was committed`;

const GENERATION = /^\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.[0-9a-f]+$/;
/** Bytes of randomness in a generation's name, beside its time. */
export const GENERATION_RANDOM_BYTES = 5;
/** `..YYYY_MM_DD_HH_MM_SS.` and the random part in hex. */
export const GENERATION_NAME_LENGTH = 2 + 19 + 1 + 2 * GENERATION_RANDOM_BYTES;

/** `..2026_11_22_06_00_41.3f9c1a7b0e`: when it was made (UTC), and a random part (hex). */
export function generationName(at: Date, random: string): string {
  return `..${at.toISOString().slice(0, 19).replace(/[-T:]/g, '_')}.${random}`;
}

export const isGeneration = (name: string): boolean => GENERATION.test(name);

/** What the visible link `name` points to: always through DATA, so one rename moves every link. */
export const linkTarget = (name: string): string => `${DATA}/${name}`;

/**
 * A name a file of an export may have: one plain name that does not start with a dot (so never
 * one of cdata's own, nor `..` itself). A manifest edited by hand cannot point cdata elsewhere.
 */
export function isFileName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name !== '' &&
    !name.startsWith('.') &&
    !/[/\0]/.test(name) &&
    Buffer.byteLength(name) <= 255
  );
}

/**
 * The generation DATA points to; undefined where there is none yet (a new folder, or an older
 * cdata's), or where the one it points to is gone (removed by hand): the next export is then a
 * new baseline, and its commit replaces the link.
 */
export function currentGeneration(dir: string): string | undefined {
  const stats = lstatSync(join(dir, DATA), { throwIfNoEntry: false });
  if (!stats) return undefined;
  const target = stats.isSymbolicLink() ? readlinkSync(join(dir, DATA)) : undefined;
  const folder = target === undefined ? undefined : statSync(join(dir, target), { throwIfNoEntry: false });
  if (target !== undefined && isGeneration(target) && folder === undefined) return undefined;
  if (target === undefined || !isGeneration(target) || !folder?.isDirectory()) {
    throw new UsageError(
      `cannot export into ${dir}: ${join(dir, DATA)} is not cdata's (a link to one of its ..YYYY_MM_DD_… folders)`,
      {
        hint: `cdata keeps each export in such a folder behind ${DATA}; move ${DATA} away, or choose another --dir.`,
      },
    );
  }
  return target;
}

/**
 * What DIR/name is: cdata's link into DATA, nothing, a plain file (an older cdata's export, or
 * one put there since), or something in the way, with the reason a message gives.
 */
export type Visible = 'ours' | 'absent' | 'file' | { inTheWay: string };

export function visible(dir: string, name: string): Visible {
  const path = join(dir, name);
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return 'absent';
  if (stats.isSymbolicLink()) {
    const target = readlinkSync(path);
    return target === linkTarget(name)
      ? 'ours'
      : { inTheWay: `it is a symbolic link cdata did not make (to ${target})` };
  }
  if (stats.isFile()) return 'file';
  return { inTheWay: stats.isDirectory() ? 'it is a folder' : 'it is not a regular file' };
}
