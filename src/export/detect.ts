// Change detection for one list of an export: its answer compared with the state the previous
// generation holds (state.ts; the new one is written by the export beside the list's file). A list's first
// export (or one whose state cdata cannot use) is its baseline: no changes, and `null` counts.
import { join } from 'node:path';
import type { Endpoint } from '../core/endpoints.js';
import type { JsonValue } from '../core/json-value.js';
import { asRows } from '../output/cells.js';
import { compareRows, type Change, type ChangeCounts } from './changes.js';
import { coverageOf, NO_COVERAGE, type Coverage } from './coverage.js';
import type { Generation } from './generation.js';
import { readState } from './state.js';

export interface Detected {
  /** For the manifest; null for a baseline. */
  counts: ChangeCounts | null;
  changes: Change[];
  /** Why the previous state was passed over (this export is then the list's baseline again). */
  unusable: string | undefined;
  /** Whether rows slipped past the cap since the previous export (coverage.ts). */
  coverage: Coverage;
}

/** The changes in `endpoint`'s list since the previous generation's state. */
export function detectChanges(
  generation: Generation,
  endpoint: Endpoint,
  answer: JsonValue,
  truncated: boolean,
): Detected {
  const key = endpoint.key;
  if (key === undefined) throw new Error(`${endpoint.name} is not a list: it has no key field`);
  const previous = readState(
    generation.current === undefined ? undefined : join(generation.dir, generation.current),
    endpoint.name,
    key,
  );
  if (!('rows' in previous))
    return {
      counts: null,
      changes: [],
      unusable: 'unusable' in previous ? previous.unusable : undefined,
      coverage: NO_COVERAGE,
    };
  const list = { name: endpoint.name, key, computed: endpoint.computed };
  const rows = asRows(answer);
  const coverage = coverageOf(endpoint, previous.newest, rows, truncated);
  return { ...compareRows(list, previous.rows, rows, truncated), unusable: undefined, coverage };
}
