// changes.ndjson: what the last export found changed, one JSON object a line, in the order of
// docs/exports.md (by list in export order, then added, changed, removed, then key). A file
// of the generation like the lists and the manifest, so DIR/changes.ndjson always agrees with
// them; every export writes it, empty when nothing changed (or every list is a baseline).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { isJsonObject, parseJson, stringifyJson } from '../core/json.js';
import { sanitizeJson } from '../core/sanitize.js';
import { cannotWrite } from '../output/sink.js';
import { CHANGE_KINDS } from './changes-view.js';
import type { Change } from './changes.js';
import type { Generation } from './generation.js';
import { errorMessage } from '../core/errors.js';

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
 * on are written as \u escapes (the same JSON), as in every ndjson file cdata writes.
 */
export function changesText(changes: readonly Change[]): string {
  return changes.map((change) => `${sanitizeJson(stringifyJson(change))}\n`).join('');
}

/** Writes changes.ndjson into the generation and shows it in DIR; past that, it fails the export. */
export async function writeChanges(generation: Generation, dir: string, changes: readonly Change[]): Promise<ChangesFile> {
  const bytes = Buffer.from(changesText(changes), 'utf8');
  try {
    await generation.write(CHANGES_FILE, bytes);
    generation.place(CHANGES_FILE);
  } catch (error) {
    throw cannotWrite(join(dir, CHANGES_FILE), error);
  }
  return { file: CHANGES_FILE, lines: changes.length, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The changes a changes.ndjson holds; throws, naming the line, at one that is not a change cdata wrote. */
export function parseChanges(text: string): Change[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, i) => {
    let change: unknown;
    try {
      change = parseJson(line);
    } catch (error) {
      throw new Error(`line ${i + 1} is not JSON: ${errorMessage(error)}`);
    }
    if (!isChange(change)) throw new Error(`line ${i + 1} is not a change cdata wrote`);
    return change;
  });
}

function isChange(value: unknown): value is Change {
  if (!isJsonObject(value) || typeof value.resource !== 'string' || typeof value.key !== 'string' || !isJsonObject(value.row)) return false;
  if (!CHANGE_KINDS.some((kind) => kind === value.change)) return false;
  return value.change !== 'changed' || isJsonObject(value.fields);
}
