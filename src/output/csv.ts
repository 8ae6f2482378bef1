// CSV (RFC 4180) with csv-stringify: header of API field names, null as empty, arrays joined with
// `; `, and formula cells neutralised by escape_formulas (a leading `'`). csv-stringify spares
// only JS numbers from that guard, so each numeric cell goes in as a number (its index in a table
// of the API's own digits) and `cast.number` writes the digits back: `-1250.50` stays
// `-1250.50`, not `'-1250.50` or `-1250.5`, and a 20-digit id keeps its digits.
import { stringify } from 'csv-stringify/sync';
import { isJsonNumber } from '../core/json.js';
import type { JsonObject } from '../core/json-value.js';
import { cellText } from './cells.js';
import { sanitize } from '../core/sanitize.js';

export const CSV_ARRAY_SEPARATOR = '; ';

export function renderCsv(
  rows: readonly JsonObject[],
  fields: readonly string[],
  options: { header: boolean; bom: boolean; terminal?: boolean },
): string {
  const lexemes: string[] = [];
  const text = (value: Parameters<typeof cellText>[0]) =>
    options.terminal ? sanitize(cellText(value, CSV_ARRAY_SEPARATOR)) : cellText(value, CSV_ARRAY_SEPARATOR);
  const records: unknown[][] = rows.map((row) =>
    fields.map((field) => {
      const value = row[field];
      if (typeof value !== 'number' && !isJsonNumber(value)) return text(value);
      lexemes.push(String(value));
      return lexemes.length - 1;
    }),
  );
  if (options.header) records.unshift([...fields]);
  const csv = stringify(records, {
    escape_formulas: true,
    record_delimiter: '\r\n',
    // A bare CR or LF inside a value must be quoted too (csv-stringify quotes only CRLF by default),
    // and so must a value starting with U+FEFF: readers take it for a BOM and drop it, and only
    // --bom should ever start the file with one.
    quoted_match: /[\r\n]|^\uFEFF/,
    cast: { number: (index) => lexemes[index]! },
  });
  return `${options.bom ? '\uFEFF' : ''}${csv}`;
}
