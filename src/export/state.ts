// Each list's state for change detection: the exact JSON of its last successful answer, kept as
// a hidden file of the export's generation (`.state.tenders.json`, beside the list's file), so it
// is committed by the same rename as the files, the manifest and changes.ndjson, and a list that
// fails carries its previous state forward with its previous file (generation.ts carries every
// hidden file along until an export replaces it). docs/exports.md, "Change detection", describes
// the file for whoever reads it.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject, MAX_VALUES, parseJson, stringifyJson } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';
import { readRegularFile } from '../io/read-file.js';
import { errorMessage } from '../core/errors.js';
import { newestRow, type NewestRow } from './coverage.js';

export const STATE_FORMAT = 'cdata-list-state';
export const STATE_VERSION = 1;
/**
 * A state is an answer (16 MiB at most, src/client/transport.ts) written again compactly: never
 * larger, but for bytes that were not UTF-8 (one byte read as U+FFFD, three written). Four times
 * the answer's cap holds any state cdata wrote.
 */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

/** `.state.tenders.json`: a dot name, so it has no link in DIR and is carried to every next generation. */
export const stateFile = (resource: string): string => `.state.${resource}.json`;

/** What a state file holds. */
export interface ListState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  resource: string;
  /** The key field the rows were matched by. */
  key: string;
  /** The list's own exportedAt, as its manifest entry gives it: the two always agree. */
  exportedAt: string;
  /** The newest row it saw (its first): what the next export looks for to tell a gap (coverage.ts). */
  newest: NewestRow | null;
  /** The answer, exactly as the API sent it (numbers as written). */
  answer: JsonValue;
}

/** The state of a list just exported, as the text of its file. */
export function stateText(resource: string, key: string, exportedAt: string, answer: JsonValue): string {
  return [...stateChunks(resource, key, exportedAt, answer)].join('');
}

/**
 * The same text a row at a time, as it is written: a large answer's state is never one more
 * string as large as the answer (stringifyJson of the whole would be).
 */
export function* stateChunks(resource: string, key: string, exportedAt: string, answer: JsonValue): Generator<string> {
  const newest = Array.isArray(answer) ? newestRow(answer.filter(isJsonObject), key) : null;
  const state: ListState = {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    resource,
    key,
    exportedAt,
    newest,
    answer: [],
  };
  const head = stringifyJson(state);
  if (!Array.isArray(answer)) {
    yield `${stringifyJson({ ...state, answer })}\n`;
    return;
  }
  // `"answer":[]}` is its end: the rows go between the brackets.
  yield head.slice(0, -2);
  for (let i = 0; i < answer.length; i++) yield `${i === 0 ? '' : ','}${stringifyJson(answer[i])}`;
  yield ']}\n';
}

/** The previous state: its rows and newest row; none (a first export); or a reason it is not used. */
export type Previous = { rows: JsonObject[]; newest: NewestRow | null } | { none: true } | { unusable: string };

/**
 * The state of `resource` in the generation folder `folder` (undefined: a folder with none yet).
 * Only what cdata wrote is used: a file of another kind (a link, a FIFO), too large, not JSON,
 * or not a state of this list is passed over, and this export becomes the list's baseline again.
 */
export function readState(folder: string | undefined, resource: string, key: string): Previous {
  if (folder === undefined) return { none: true };
  const path = join(folder, stateFile(resource));
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return { none: true };
  // Only a regular file of its own: a link cdata never makes could lead anywhere (/dev/zero).
  if (!stats.isFile()) return { unusable: 'it is not a regular file' };
  let state: JsonValue;
  try {
    // Bounded again on the descriptor itself (it may have changed since the lstat).
    const { bytes } = readRegularFile(path, MAX_STATE_BYTES);
    state = parseJson(bytes.toString('utf8'), { maxValues: MAX_VALUES + 16 });
  } catch (error) {
    return { unusable: errorMessage(error) };
  }
  if (!isJsonObject(state) || state.format !== STATE_FORMAT || state.version !== STATE_VERSION)
    return { unusable: 'it is not a state cdata wrote' };
  if (state.resource !== resource || state.key !== key) return { unusable: `it is not the state of ${resource}` };
  if (!Array.isArray(state.answer)) return { unusable: 'it holds no list' };
  const rows = state.answer.filter(isJsonObject);
  // A state from before it kept its newest row: the first of its answer is that row.
  return { rows, newest: isNewest(state.newest) ? state.newest : newestRow(rows, key) };
}

function isNewest(value: JsonValue | undefined): value is JsonObject & NewestRow {
  return (
    isJsonObject(value) &&
    typeof value.key === 'string' &&
    (value.createdAt === null || typeof value.createdAt === 'string')
  );
}
