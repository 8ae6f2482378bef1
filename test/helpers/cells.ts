// What a value of the API's JSON should look like in each text format, written out from
// docs/output.md rather than taken from src/output, so the format tests check the rules.
import { parse as parseCsv } from 'csv-parse/sync';
import { isJsonNumber, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { sanitize } from '../../src/core/sanitize.js';

/** A JSON number: a plain number when a double keeps its text, else a JsonNumber holding it. */
const isNumber = (value: JsonValue | undefined): boolean => typeof value === 'number' || isJsonNumber(value);

/** The row's text with the format's array separator: null empty, numbers as the API wrote them. */
export function plainCell(value: JsonValue | undefined, arraySeparator: string): string {
  if (value === null || value === undefined) return '';
  if (isJsonNumber(value)) return value.value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((item) => plainCell(item, arraySeparator)).join(arraySeparator);
  if (typeof value === 'object') throw new Error('no nested objects in the demo data');
  return String(value);
}

/** csv: arrays joined by `; `, a text cell starting = + - @ tab CR (or their full-width forms) gains `'`. */
export function csvCell(value: JsonValue | undefined): string {
  const text = plainCell(value, '; ');
  return !isNumber(value) && /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/.test(text) ? `'${text}` : text;
}

export const tsvCell = (value: JsonValue | undefined): string => plainCell(value, '; ');

export const tableCell = (value: JsonValue | undefined): string => sanitize(plainCell(value, ', '));

export function rowsOf(data: JsonValue): JsonObject[] {
  return (Array.isArray(data) ? data : [data]) as JsonObject[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A borderless table line holding these cells in order, at least two spaces apart (numbers may
 * carry more, being right-aligned); trailing empty cells leave nothing, as lines are trimmed.
 */
export function tableLinePattern(cells: readonly string[]): RegExp {
  const kept = [...cells];
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return new RegExp(`^ *${kept.map(escapeRegExp).join(' {2,}')}$`);
}

/**
 * CSV parsed as the strictest common reader does (Python's csv, Excel): any bare CR or LF ends a
 * record, so a line break inside a value survives only when the value is quoted (RFC 4180).
 */
export function parseStrictCsv(text: string): string[][] {
  return parseCsv(text, { record_delimiter: ['\r\n', '\n', '\r'], bom: false }) as string[][];
}
