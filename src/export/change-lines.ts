// Changes as lines a person reads (table, csv, tsv): each with its record's title or name, and
// what changed as text, a field an item: `decision: — → BID`, `status: OPEN → DONE`. null shows
// as `—`; a field the row did not have at all as `(absent)`, since changes.ndjson tells the two
// apart. A field read with another (an amount with its currency) has it beside, when that did
// not change itself: `amount: 40000.00 → 45977.42 (currency: EUR)`.
import { findEndpoint } from '../core/endpoints.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';
import { cellText } from '../output/cells.js';
import type { Change, FieldChange } from './changes.js';

/** The fields that name a record, in the order they are looked for. */
const TITLES = ['title', 'name', 'fullName'];

export function changeLines(changes: readonly Change[]): JsonObject[] {
  return changes.map((change) => ({
    resource: change.resource,
    change: change.change,
    key: change.key,
    title: titleOf(change),
    fields:
      change.change === 'changed'
        ? Object.entries(change.fields).map(([name, field]) => `${name}: ${sides(field)}${beside(change, name)}`)
        : [],
    row: change.row,
  }));
}

/** The row's title or name, by its list's fields (a list cdata does not know: the first it has). */
function titleOf({ resource, row }: Change): JsonValue {
  const fields = findEndpoint(resource)?.fields.map((field) => field.name) ?? Object.keys(row);
  const name = TITLES.find((title) => fields.includes(title) && Object.hasOwn(row, title));
  return name === undefined ? null : row[name]!;
}

/** The unchanged fields its list keeps together with `name` (tables: fit.ts), as they are now. */
function beside({ resource, fields, row }: Extract<Change, { change: 'changed' }>, name: string): string {
  const group = findEndpoint(resource)?.together?.find((members) => members.includes(name)) ?? [];
  const mates = group.filter((mate) => mate !== name && !Object.hasOwn(fields, mate) && Object.hasOwn(row, mate));
  return mates.length === 0 ? '' : ` (${mates.map((mate) => `${mate}: ${text(row[mate]!)}`).join(', ')})`;
}

function sides(field: FieldChange): string {
  return `${'from' in field ? text(field.from!) : '(absent)'} → ${'to' in field ? text(field.to!) : '(absent)'}`;
}

/** A value as a table cell shows it (arrays joined as tables join them), but nothing empty-looking. */
function text(value: JsonValue): string {
  if (value === null) return '—';
  if (value === '') return '""';
  if (Array.isArray(value) && value.length === 0) return '[]';
  return cellText(value, ', ');
}
