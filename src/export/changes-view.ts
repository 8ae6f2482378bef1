// What changes are, to the commands and renderers: the kinds an export records, in the order
// changes.ndjson lists them, and the two views `cdata changes` prints them through. Apart from
// changes.ts so that `cdata changes`' declaration, which help and completions load on every
// command, loads nothing else.
import { type Field, LIST_ENDPOINTS, type View } from '../core/endpoints.js';

export const CHANGE_KINDS = ['added', 'changed', 'removed'] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];

// The list's name, never cut (a name of its own, as an enum value is); a narrow table drops it first.
const resource: Field = { name: 'resource', type: { kind: 'enum', values: LIST_ENDPOINTS.map((e) => e.name) } };
const change: Field = { name: 'change', type: { kind: 'enum', values: CHANGE_KINDS } };
// An identifier, which a narrow table must not cut: typed as one, so the free text gives way first.
const key: Field = { name: 'key', type: { kind: 'uuid' } };

/** The changes as changes.ndjson holds them (json, ndjson): `fields` and `row` are objects. */
export const CHANGE_VIEW: View = {
  name: 'changes',
  shape: 'list',
  fields: [
    resource,
    key,
    change,
    { name: 'fields', type: { kind: 'string' } },
    { name: 'row', type: { kind: 'string' } },
  ],
  columns: ['resource', 'change', 'key', 'fields'],
};

/**
 * One line per change (table, csv, tsv): the record's title or name, and what changed, an item
 * a field, `decision: — → BID`; csv and tsv join the items with `; ` and also carry the row, as
 * JSON. A table at a terminal shows the key as the lists show it (a UUID as its shortest unique
 * prefix), cuts only the title (below 80 columns it drops the list's name first, never the kind),
 * and puts what changed under the change's line, a field a line, wrapped rather than cut.
 */
export const CHANGE_LINE_VIEW: View = {
  name: 'changes',
  shape: 'list',
  fields: [
    resource,
    change,
    key,
    { name: 'title', type: { kind: 'string' } },
    { name: 'fields', type: { kind: 'string[]' } },
    { name: 'row', type: { kind: 'string' } },
  ],
  columns: ['resource', 'change', 'key', 'title', 'fields'],
  key: 'key',
  main: 'title',
  detail: 'fields',
  // Below 80 columns the list's name goes first: the kind of change must stay.
  drop: ['resource'],
};
