// What changed in one list between two exports (docs/exports.md): rows matched by their key
// (tenders: ocid, agents: name, else id), and each one added, changed (with `{from, to}` for each
// field that differs) or removed. Values are compared as JSON values (core/json-equal.ts). The
// order is fixed, so two runs over the same answers write the same changes.ndjson: added, then
// changed, then removed, each by key (sorted by UTF-16 code units, as JavaScript sorts strings).
import { sameJson } from '../core/json-equal.js';
import { setOwn } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';

/** One field's change. A side left out means the row had no such field there (not even null). */
export type FieldChange = { from: JsonValue; to: JsonValue } | { from: JsonValue } | { to: JsonValue };

/** One line of changes.ndjson: `row` is the new row (added, changed) or the old one (removed). */
export type Change =
  | { resource: string; key: string; change: 'added' | 'removed'; row: JsonObject }
  | { resource: string; key: string; change: 'changed'; fields: Record<string, FieldChange>; row: JsonObject };

/** manifest.json's count per list; `removed: null` when the list was truncated (unknown). */
export interface ChangeCounts {
  added: number;
  changed: number;
  removed: number | null;
}

/** What a list's rows are compared by. */
export interface Keyed {
  /** The list's name, as each change names it. */
  name: string;
  /** The field that names a row. */
  key: string;
  /** Fields the API works out from the day of the request: not compared (endpoints.ts). */
  computed?: readonly string[];
}

/**
 * The changes from `before` to `after`. When `after` is truncated (as many rows as the limit), a
 * row missing from it may only have left the window, so none is reported removed.
 */
export function compareRows(
  list: Keyed,
  before: readonly JsonObject[],
  after: readonly JsonObject[],
  truncated: boolean,
): { changes: Change[]; counts: ChangeCounts } {
  const old = byKey(list, before);
  const now = byKey(list, after);
  const ignored = new Set(list.computed ?? []);
  const added: Change[] = [];
  const changed: Change[] = [];
  const removed: Change[] = [];
  const resource = list.name;
  for (const key of [...now.keys()].sort()) {
    const row = now.get(key)!;
    const was = old.get(key);
    if (was === undefined) {
      added.push({ resource, key, change: 'added', row });
      continue;
    }
    const fields = fieldChanges(was, row, ignored);
    if (fields) changed.push({ resource, key, change: 'changed', fields, row });
  }
  if (!truncated) {
    for (const key of [...old.keys()].sort())
      if (!now.has(key)) removed.push({ resource, key, change: 'removed', row: old.get(key)! });
  }
  return {
    changes: [...added, ...changed, ...removed],
    counts: { added: added.length, changed: changed.length, removed: truncated ? null : removed.length },
  };
}

/**
 * Rows by key. A row whose key is not a string (missing, null, a number) cannot be followed from
 * one export to the next, and a second row with the key of an earlier one is the same record
 * twice: both are left out of the comparison (they stay in the list's file).
 */
function byKey(list: Keyed, rows: readonly JsonObject[]): Map<string, JsonObject> {
  const keyed = new Map<string, JsonObject>();
  for (const row of rows) {
    const key = Object.hasOwn(row, list.key) ? row[list.key] : undefined;
    if (typeof key === 'string' && !keyed.has(key)) keyed.set(key, row);
  }
  return keyed;
}

/** The fields that differ, in the new row's order and then the old row's; undefined when none. */
function fieldChanges(
  was: JsonObject,
  row: JsonObject,
  ignored: ReadonlySet<string>,
): Record<string, FieldChange> | undefined {
  let fields: Record<string, FieldChange> | undefined;
  const names = new Set([...Object.keys(row), ...Object.keys(was)]);
  for (const name of names) {
    if (ignored.has(name)) continue;
    const [had, has] = [Object.hasOwn(was, name), Object.hasOwn(row, name)];
    if (had && has && sameJson(was[name], row[name])) continue;
    const change: FieldChange =
      had && has ? { from: was[name]!, to: row[name]! } : had ? { from: was[name]! } : { to: row[name]! };
    fields ??= {};
    // `__proto__` is a field name like any other here: kept an own key (json.ts setOwn).
    setOwn(fields, name, change);
  }
  return fields;
}
