// What a reader of an export folder sees, for the export tests: the names a reader opens and the
// files behind them, whether they make one complete export (files, manifest and SHA-256s
// agreeing), and anything left that should not be (a generation never committed, a lock, a
// temp link, a link that leads nowhere). Written from docs/exports.md, not from src/.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Manifest, ResourceOk, ResourceWritten } from '../../src/export/manifest.js';

/** The files every export writes anew, whatever lists it asks for: its manifest and its changes. */
export const REWRITTEN: ReadonlySet<string> = new Set(['manifest.json', 'changes.ndjson']);

/** The names `ls` shows (no dot names), sorted. */
export const names = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .sort();

/** Each name a reader can open, with its content (through the links). */
export function shown(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names(dir))
    if (statSync(join(dir, name), { throwIfNoEntry: false })?.isFile())
      out[name] = readFileSync(join(dir, name), 'utf8');
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

export const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
export const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every file the manifest describes, by name: its own, those failed lists kept, earlier and history, and changes.ndjson. */
export function described(manifest: Manifest): Map<string, { sha256: string; bytes: number }> {
  const files = new Map<string, { sha256: string; bytes: number }>();
  // An older cdata's manifest has no changes.ndjson.
  if (manifest.changesFile) files.set(manifest.changesFile.file, manifest.changesFile);
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
 * reader can open (but itself), each with its SHA-256 and size; each list's state and the changes
 * agree with it (see agrees). Returns the manifest; throws on any mismatch.
 */
export function whole(dir: string): Manifest {
  const manifest = manifestOf(dir);
  agrees(dir, manifest);
  const files = described(manifest);
  const openable = exported(dir).filter((name) => name !== 'manifest.json');
  if (openable.join() !== [...files.keys()].sort().join())
    throw new Error(
      `the folder shows ${openable.join(', ')}; the manifest describes ${[...files.keys()].sort().join(', ')}`,
    );
  for (const [file, entry] of files) {
    const content = readFileSync(join(dir, file));
    if (content.length !== entry.bytes || sha256(join(dir, file)) !== entry.sha256)
      throw new Error(`${file} does not match its manifest entry`);
  }
  return manifest;
}

/** A list's state in the current generation (docs/exports.md, "Where the state is kept"); undefined when it has none. */
export function stateOf(
  dir: string,
  resource: string,
): { resource: string; exportedAt: string; answer: unknown[] } | undefined {
  const path = join(dir, '..data', `.state.${resource}.json`);
  return existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as { resource: string; exportedAt: string; answer: unknown[] })
    : undefined;
}

/** The lines of changes.ndjson, parsed (numbers as doubles: enough to count and compare keys). */
export const changeLinesOf = (dir: string): { resource: string; key: string; change: string }[] =>
  readFileSync(join(dir, 'changes.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { resource: string; key: string; change: string });

/**
 * Files, manifest, changes and states agree: each list a manifest entry describes has, if it has a
 * state, the state of that very export (its exportedAt, its rows); every list this export wrote
 * has one; and changes.ndjson holds as many lines of each kind for each list as its entry counts
 * (none for a baseline or a failure). A manifest of an older cdata (no changes.ndjson) has none.
 */
function agrees(dir: string, manifest: Manifest): void {
  if (!manifest.changesFile) return;
  const lines = changeLinesOf(dir);
  const entries: [string, { exportedAt: string; rows: number }][] = manifest.earlier.map((entry) => [
    entry.resource,
    entry,
  ]);
  for (const entry of manifest.resources) {
    if (entry.status === 'ok') entries.push([entry.resource, entry]);
    else if (entry.kept) entries.push([entry.resource, entry.kept]);
    const counts = entry.changes ?? { added: 0, changed: 0, removed: 0 };
    const kinds = Object.fromEntries(
      ['added', 'changed', 'removed'].map((kind) => [
        kind,
        lines.filter((l) => l.resource === entry.resource && l.change === kind).length,
      ]),
    );
    if (kinds.added !== counts.added || kinds.changed !== counts.changed || kinds.removed !== (counts.removed ?? 0)) {
      throw new Error(
        `${entry.resource}: changes.ndjson holds ${JSON.stringify(kinds)}; the manifest counts ${JSON.stringify(entry.changes)}`,
      );
    }
  }
  for (const [resource, entry] of entries) {
    const state = stateOf(dir, resource);
    const wroteIt = manifest.resources.some((r) => r.resource === resource && r.status === 'ok');
    if (state === undefined && !wroteIt) continue; // a file from before change detection, carried along
    if (state?.exportedAt !== entry.exportedAt || state.answer.length !== entry.rows) {
      throw new Error(
        `${resource}: its state (${state?.exportedAt}, ${state?.answer.length} rows) is not that of its file (${entry.exportedAt}, ${entry.rows} rows)`,
      );
    }
  }
  const listed = new Set(manifest.resources.map((r) => r.resource));
  const strays = lines.filter((line) => !listed.has(line.resource));
  if (strays.length > 0)
    throw new Error(
      `changes.ndjson holds changes of lists this export did not ask for: ${strays.map((l) => l.resource).join(', ')}`,
    );
}

/** Links that lead nowhere (a kill between placing a new name's link and the commit leaves one). */
export const dangling = (dir: string): string[] =>
  names(dir).filter(
    (name) =>
      lstatSync(join(dir, name)).isSymbolicLink() && statSync(join(dir, name), { throwIfNoEntry: false }) === undefined,
  );

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

/** The folder made as cdata wrote it before generations: plain files, no links, no ..data, no `history`, no changes. */
export function asOldLayout(dir: string): void {
  const current = readlinkSync(join(dir, '..data'));
  for (const name of names(dir)) {
    unlinkSync(join(dir, name));
    linkSync(join(dir, current, name), join(dir, name));
  }
  unlinkSync(join(dir, '..data'));
  rmSync(join(dir, current), { recursive: true });
  // Nor did it write changes: no changes.ndjson, no counts, no states (they were in the generation).
  unlinkSync(join(dir, 'changes.ndjson'));
  const { history: _history, changesFile: _changes, ...manifest } = manifestOf(dir);
  manifest.resources = manifest.resources.map(({ changes: _counts, ...entry }) => entry) as Manifest['resources'];
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
  const ok = manifest.resources.filter((r): r is ResourceWritten => r.status === 'ok');
  return Object.fromEntries(ok.map((r) => [r.resource, files[r.file]!]));
}
