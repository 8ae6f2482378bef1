// Change detection for one list of an export: its answer compared with the state the previous
// generation holds (state.ts), and the new state to write beside the list's file. A list's first
// export (or one whose state cdata cannot use) is its baseline: no changes, and `null` counts.
import { join } from 'node:path';
import type { Endpoint } from '../core/endpoints.js';
import type { JsonValue } from '../core/json-value.js';
import { asRows } from '../output/cells.js';
import { compareRows, type Change, type ChangeCounts } from './changes.js';
import { coverageOf, NO_COVERAGE, type Coverage } from './coverage.js';
import type { Generation } from './generation.js';
import { readState, stateFile, stateText } from './state.js';

export interface Detected {
  /** For the manifest; null for a baseline. */
  counts: ChangeCounts | null;
  changes: Change[];
  /** Why the previous state was passed over (this export is then the list's baseline again). */
  unusable: string | undefined;
  /** Whether rows slipped past the cap since the previous export (coverage.ts). */
  coverage: Coverage;
  /** The new state: its file name in the generation, and its text. */
  state: { file: string; text: string };
}

/** The changes in `endpoint`'s list since the previous generation's state, and the state to write now. */
export function detectChanges(generation: Generation, endpoint: Endpoint, answer: JsonValue, exportedAt: string, truncated: boolean): Detected {
  const key = endpoint.key;
  if (key === undefined) throw new Error(`${endpoint.name} is not a list: it has no key field`);
  const previous = readState(generation.current === undefined ? undefined : join(generation.dir, generation.current), endpoint.name, key);
  const state = { file: stateFile(endpoint.name), text: stateText(endpoint.name, key, exportedAt, answer) };
  if (!('rows' in previous)) return { counts: null, changes: [], unusable: 'unusable' in previous ? previous.unusable : undefined, coverage: NO_COVERAGE, state };
  const list = { name: endpoint.name, key, computed: endpoint.computed };
  const rows = asRows(answer);
  const coverage = coverageOf(endpoint, previous.newest, rows, truncated);
  return { ...compareRows(list, previous.rows, rows, truncated), unusable: undefined, coverage, state };
}

/**
 * A list's file and its state enter the generation together or not at all, so the state always
 * describes the file beside it: when either cannot be written (a full disk), neither stays, and
 * the list keeps its previous file and state, as a list that failed does.
 */
export async function writeTogether(generation: Generation, files: readonly (readonly [name: string, content: string | Buffer])[]): Promise<void> {
  const written = await Promise.allSettled(files.map(([name, content]) => generation.write(name, content)));
  const failed = written.find((result) => result.status === 'rejected');
  if (failed === undefined) return;
  for (const [name] of files) generation.drop(name);
  throw failed.reason;
}
