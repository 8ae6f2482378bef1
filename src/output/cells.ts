// One value of a row as text: the rules every format but JSON shares (docs/output.md):
// null prints as empty, arrays are joined, numbers stay exactly as the API wrote them.
import { isJsonNumber, isJsonObject, stringifyJson } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';

export function cellText(value: JsonValue | undefined, arraySeparator: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || isJsonNumber(value)) return String(value);
  if (Array.isArray(value)) return value.map((item) => cellText(item, arraySeparator)).join(arraySeparator);
  return stringifyJson(value);
}

/** Rows as a list whatever the endpoint's shape: `me` is one row. */
export function asRows(data: JsonValue): JsonObject[] {
  if (Array.isArray(data)) return data.filter(isJsonObject);
  return isJsonObject(data) ? [data] : [];
}

/** Only the chosen fields, in the chosen order (a field the row lacks is null). */
export function project(row: JsonObject, fields: readonly string[]): JsonObject {
  return Object.fromEntries(fields.map((field) => [field, Object.hasOwn(row, field) ? row[field]! : null]));
}
