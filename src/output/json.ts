// json: exactly what the API returned (unknown fields kept, numbers as written), pretty-printed;
// ndjson: one compact object per line. With --fields, objects are projected to those fields.
import { stringifyJson, type JsonObject, type JsonValue } from '../json.js';
import { asRows, project } from './cells.js';

export function renderJson(data: JsonValue, fields: readonly string[] | undefined): string {
  const projected = fields === undefined ? data : Array.isArray(data) ? asRows(data).map((row) => project(row, fields)) : project(asRows(data)[0] ?? {}, fields);
  return `${stringifyJson(projected, 2)}\n`;
}

export function renderNdjson(rows: readonly JsonObject[], fields: readonly string[] | undefined): string {
  return rows.map((row) => `${stringifyJson(fields === undefined ? row : project(row, fields))}\n`).join('');
}
