// CSV (RFC 4180) with csv-stringify: header of API field names, null as empty, arrays joined with
// `; `, and formula cells neutralised by escape_formulas (a leading `'`). csv-stringify spares
// only JS numbers from that guard, so numeric cells go in as numbers and `cast.number` writes back
// the API's own digits (`-1250.50` stays `-1250.50`, not `'-1250.50` or `-1250.5`).
import { stringify } from 'csv-stringify/sync';
import { isJsonNumber, type JsonObject } from '../json.js';
import { cellText } from './cells.js';

export const CSV_ARRAY_SEPARATOR = '; ';

export function renderCsv(rows: readonly JsonObject[], fields: readonly string[], options: { header: boolean; bom: boolean }): string {
  let lexemes: string[] = [];
  const stringifyRecords = (records: unknown[][]) =>
    stringify(records, {
      escape_formulas: true,
      record_delimiter: '\r\n',
      // csv-stringify quotes a value holding the whole record delimiter (CRLF) but not a bare LF
      // or CR, which Excel and Python's csv then take as the end of the row (RFC 4180: quote it).
      quoted_match: /[\r\n]/,
      cast: { number: (_value, context) => lexemes[context.index]! },
    });
  let out = options.bom ? '\uFEFF' : '';
  if (options.header) out += stringifyRecords([[...fields]]);
  for (const row of rows) {
    lexemes = [];
    const record = fields.map((field, index) => {
      const value = row[field];
      if (typeof value === 'number' || isJsonNumber(value)) {
        lexemes[index] = String(value);
        // Any JS number will do: it only marks the cell as numeric. Not Number(value), which
        // throws for what a double cannot hold (1e400, 12345678901234567890).
        return 0;
      }
      return cellText(value, CSV_ARRAY_SEPARATOR);
    });
    out += stringifyRecords([record]);
  }
  return out;
}
