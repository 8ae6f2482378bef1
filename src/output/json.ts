// json: exactly what the API returned (unknown fields kept, numbers as written), pretty-printed;
// ndjson: one compact object per line. With --fields, objects are projected to those fields.
// Characters JSON.stringify leaves raw but a terminal may act on (C1 controls, bidi overrides,
// line separators) are written as \u escapes: the same JSON, safe on a terminal.
import { stringifyJson } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';
import { asRows, project } from './cells.js';
import { sanitizeJson } from '../core/sanitize.js';

export function renderJson(data: JsonValue, fields: readonly string[] | undefined): string {
  const projected =
    fields === undefined
      ? data
      : Array.isArray(data)
        ? asRows(data).map((row) => project(row, fields))
        : project(asRows(data)[0] ?? {}, fields);
  if (!Array.isArray(projected) || projected.length === 0) return `${sanitizeJson(stringifyJson(projected, 2))}\n`;
  // A list a row at a time, as JSON.stringify would indent it: the whole output is then built
  // once, by the join, rather than three times (stringified, numbers restored, newline added).
  const last = projected.length - 1;
  const rows = projected.map(
    (row, i) => `  ${sanitizeJson(stringifyJson(row, 2)).replaceAll('\n', '\n  ')}${i < last ? ',' : ''}`,
  );
  return ['[', ...rows, ']', ''].join('\n');
}

export function renderNdjson(rows: readonly JsonObject[], fields: readonly string[] | undefined): string {
  return rows
    .map((row) => `${sanitizeJson(stringifyJson(fields === undefined ? row : project(row, fields)))}\n`)
    .join('');
}
