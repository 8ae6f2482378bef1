// The one entry to output: data in, text out, for any of the five formats. Each format loads
// only when used, so `-o json` never pays for cli-table3, chalk or csv-stringify.
import type { Format } from '../config/schema.js';
import { fieldNames, type View } from '../core/endpoints.js';
import type { JsonValue } from '../core/json-value.js';
import { asRows } from './cells.js';
import type { ColorLevel } from './color.js';

export interface RenderRequest {
  view: View;
  data: JsonValue;
  format: Format;
  /** --fields, already validated; undefined means the format's default. */
  fields: readonly string[] | undefined;
  header: boolean;
  bom: boolean;
  color: ColorLevel;
  /** Terminal width for tables; undefined: natural widths. */
  width: number | undefined;
  /**
   * The text goes to a terminal: CSV then shows control characters escaped, as tables do (CSV
   * has no escape of its own, so a file or a pipe gets the data exactly as sent).
   */
  terminal?: boolean;
}

/** Column kinds a table may shorten first when the terminal is narrow. */
const FREE_TEXT = new Set(['string', 'string[]']);

export async function render(request: RenderRequest): Promise<string> {
  const { view, data, format, fields, header } = request;
  if (view.shape === 'value' || view.shape === 'values') return (await import('./values.js')).renderValues(request, render);
  const rows = asRows(data);
  switch (format) {
    case 'json':
      return (await import('./json.js')).renderJson(data, fields);
    case 'ndjson':
      return (await import('./json.js')).renderNdjson(rows, fields);
    case 'csv':
      return (await import('./csv.js')).renderCsv(rows, fields ?? fieldNames(view), { header, bom: request.bom, terminal: request.terminal === true });
    case 'tsv':
      return (await import('./tsv.js')).renderTsv(rows, fields ?? fieldNames(view), { header });
    case 'table': {
      const table = await import('./table.js');
      const options = { header, color: request.color, width: request.width, headings: view.headings ?? {} };
      if (view.shape === 'object') return table.renderPairs(rows[0] ?? {}, fields ?? view.columns, options);
      const columns = fields ?? view.columns;
      const flexible = columns.map((name) => FREE_TEXT.has(view.fields.find((f) => f.name === name)?.type.kind ?? 'string'));
      return rows.length === 0 ? '' : table.renderTable(rows, columns, { ...options, flexible });
    }
  }
}
