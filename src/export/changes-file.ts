// changes.ndjson: what the last export found changed, one JSON object a line, in the order of
// docs/exports.md (by list in export order, then added, changed, removed, then key). A file
// of the generation like the lists and the manifest, so DIR/changes.ndjson always agrees with
// them; every export writes it, empty when nothing changed (or every list is a baseline). Each
// list's lines go to a part of their own as the list is compared (one list's changes in memory
// at a time, whatever order the lists come in), and the parts are joined in export order at the
// commit, read and written a chunk at a time.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject, parseJson, stringifyJson } from '../core/json.js';
import { sanitizeJson } from '../core/sanitize.js';
import { cannotWrite } from '../output/sink.js';
import { CHANGE_KINDS } from './changes-view.js';
import type { Change } from './changes.js';
import type { Generation } from './generation.js';
import { errorMessage } from '../core/errors.js';
import type { Content } from '../io/atomic.js';

export const CHANGES_FILE = 'changes.ndjson';

/** The manifest's description of the file, so a consumer can check it as it checks the lists. */
export interface ChangesFile {
  file: typeof CHANGES_FILE;
  lines: number;
  bytes: number;
  sha256: string;
}

/**
 * Each change as one compact line, numbers as the API wrote them; characters a terminal may act
 * on are written as \u escapes (the same JSON), as in every ndjson file cdata writes. One line at
 * a time, as it is written.
 */
export function* linesOf(changes: readonly Change[]): Generator<string> {
  for (const change of changes) yield `${sanitizeJson(stringifyJson(change))}\n`;
}

/** The lines of `changes` as one text (for a few changes: tests, examples). */
export const changesText = (changes: readonly Change[]): string => [...linesOf(changes)].join('');

/** A list's part of changes.ndjson, in the generation until the commit joins the parts. */
export const changesPart = (resource: string): string => `.changes.${resource}.ndjson`;

/** A list's changes, written to its part; the part's name, or none when it has no changes. */
export async function writeChangesPart(
  write: (name: string, content: Content) => Promise<void>,
  resource: string,
  changes: readonly Change[],
): Promise<{ part: string | undefined; lines: number }> {
  if (changes.length === 0) return { part: undefined, lines: 0 };
  const part = changesPart(resource);
  await write(part, linesOf(changes));
  return { part, lines: changes.length };
}

/**
 * Writes changes.ndjson into the generation from the lists' parts (in export order), removes the
 * parts, and shows it in DIR; past that, it fails the export.
 */
export async function writeChanges(
  generation: Generation,
  dir: string,
  parts: readonly { part: string | undefined; lines: number }[],
): Promise<ChangesFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  async function* joined(): AsyncGenerator<Buffer> {
    for (const { part } of parts) {
      if (part === undefined) continue;
      for await (const chunk of createReadStream(join(generation.path, part)) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    }
  }
  try {
    await generation.write(CHANGES_FILE, joined());
    for (const { part } of parts) if (part !== undefined) generation.drop(part);
    generation.place(CHANGES_FILE);
  } catch (error) {
    throw cannotWrite(join(dir, CHANGES_FILE), error);
  }
  return {
    file: CHANGES_FILE,
    lines: parts.reduce((sum, { lines }) => sum + lines, 0),
    bytes,
    sha256: hash.digest('hex'),
  };
}

/** One line of changes.ndjson as a change; throws, saying why, at one that is not a change cdata wrote. */
export function parseChange(line: string): Change {
  let change: unknown;
  try {
    change = parseJson(line);
  } catch (error) {
    throw new Error(`is not JSON: ${errorMessage(error)}`);
  }
  if (!isChange(change)) throw new Error('is not a change cdata wrote');
  return change;
}

function isChange(value: unknown): value is Change {
  if (
    !isJsonObject(value) ||
    typeof value.resource !== 'string' ||
    typeof value.key !== 'string' ||
    !isJsonObject(value.row)
  )
    return false;
  if (!CHANGE_KINDS.some((kind) => kind === value.change)) return false;
  return value.change !== 'changed' || isJsonObject(value.fields);
}
