// What a reader of an export folder sees, for the export tests: the names a reader opens and the
// files behind them, whether they make one complete export (files, manifest and SHA-256s
// agreeing), and anything left that should not be (a generation never committed, a lock, a
// temp link, a link that leads nowhere). Written from docs/exports.md, not from src/.
import { createHash } from 'node:crypto';
import { cpSync, linkSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest, ResourceOk } from '../../src/export/manifest.js';

/** The names `ls` shows (no dot names), sorted. */
export const names = (dir: string): string[] => readdirSync(dir).filter((name) => !name.startsWith('.')).sort();

/** Each name a reader can open, with its content (through the links). */
export function shown(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names(dir)) if (statSync(join(dir, name), { throwIfNoEntry: false })?.isFile()) out[name] = readFileSync(join(dir, name), 'utf8');
  return out;
}

/**
 * The names cdata shows: its links into ..data, and, while a folder an older cdata wrote is being
 * taken over, plain files that are the very file in ..data (hard links); in such a folder before
 * that (no ..data yet), every plain file. A file of someone's own beside an export is not the export's.
 */
function exported(dir: string): string[] {
  if (!readdirSync(dir).includes('..data')) return Object.keys(shown(dir));
  return Object.keys(shown(dir)).filter((name) => {
    const stats = lstatSync(join(dir, name));
    if (stats.isSymbolicLink()) return readlinkSync(join(dir, name)) === `..data/${name}`;
    return stats.ino === statSync(join(dir, '..data', name), { throwIfNoEntry: false })?.ino;
  });
}

export const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
export const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every file the manifest describes, by name: its own, those failed lists kept, earlier and history. */
export function described(manifest: Manifest): Map<string, { sha256: string; bytes: number }> {
  const files = new Map<string, { sha256: string; bytes: number }>();
  for (const entry of manifest.resources) {
    if (entry.status === 'ok') files.set(entry.file, entry);
    else if (entry.kept) files.set(entry.kept.file, entry.kept);
  }
  // An older cdata's manifest has no `history`.
  for (const entry of [...manifest.earlier, ...(manifest.history ?? [])] as ResourceOk[]) files.set(entry.file, entry);
  return files;
}

/**
 * The folder holds one complete export: the manifest describes exactly the export's files a
 * reader can open (but itself), each with its SHA-256 and size. Returns the manifest; throws on
 * any mismatch.
 */
export function whole(dir: string): Manifest {
  const manifest = manifestOf(dir);
  const files = described(manifest);
  const openable = exported(dir).filter((name) => name !== 'manifest.json');
  if (openable.join() !== [...files.keys()].sort().join()) throw new Error(`the folder shows ${openable.join(', ')}; the manifest describes ${[...files.keys()].sort().join(', ')}`);
  for (const [file, entry] of files) {
    const content = readFileSync(join(dir, file));
    if (content.length !== entry.bytes || sha256(join(dir, file)) !== entry.sha256) throw new Error(`${file} does not match its manifest entry`);
  }
  return manifest;
}

/** Links that lead nowhere (a kill between placing a new name's link and the commit leaves one). */
export const dangling = (dir: string): string[] =>
  names(dir).filter((name) => lstatSync(join(dir, name)).isSymbolicLink() && statSync(join(dir, name), { throwIfNoEntry: false }) === undefined);

/** What should not outlast an export: every dot name but ..data and its generation, and dangling links. */
export function leftovers(dir: string): string[] {
  const current = readdirSync(dir).includes('..data') ? readlinkSync(join(dir, '..data')) : undefined;
  const extra = readdirSync(dir).filter((name) => name.startsWith('.') && name !== '..data' && name !== current);
  const inside = current ? readdirSync(join(dir, current)).filter((name) => name.endsWith('.tmp')) : [];
  return [...extra, ...inside.map((name) => `${current}/${name}`), ...dangling(dir)].sort();
}

/** A copy of an export folder, links kept as links (they are relative, so the copy works). */
export function copyFolder(from: string, to: string): void {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

/** The folder made as cdata wrote it before generations: plain files, no links, no ..data, no `history`. */
export function asOldLayout(dir: string): void {
  const current = readlinkSync(join(dir, '..data'));
  for (const name of names(dir)) {
    unlinkSync(join(dir, name));
    linkSync(join(dir, current, name), join(dir, name));
  }
  unlinkSync(join(dir, '..data'));
  rmSync(join(dir, current), { recursive: true });
  const { history: _history, ...manifest } = manifestOf(dir);
  unlinkSync(join(dir, 'manifest.json'));
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The two layouts an export may find: its own, and an older cdata's (see asOldLayout). */
export const LAYOUTS: [string, (dir: string) => void][] = [
  ['of this layout', () => undefined],
  ['an older cdata wrote (plain files, moved to this layout by the same run)', asOldLayout],
];

/** An export's own lists (ok entries), by resource: their content, whatever their (stamped) names. */
export function listsOf(files: Record<string, string>, manifest: Manifest): Record<string, string> {
  const ok = manifest.resources.filter((r): r is ResourceOk => r.status === 'ok');
  return Object.fromEntries(ok.map((r) => [r.resource, files[r.file]!]));
}
