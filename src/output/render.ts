// The one entry to output: data in, text out, for any of the five formats. Each format loads
// only when used, so `-o json` never pays for cli-table3, chalk or csv-stringify.
import { fieldNames } from '../core/endpoints.js';
import type { JsonValue } from '../core/json-value.js';
import { asRows, cellText } from './cells.js';

export type { RenderRequest } from './request.js';
import type { RenderRequest } from './request.js';

export async function render(request: RenderRequest): Promise<string> {
  const { view, data, format, fields, header } = request;
  if (view.shape === 'value' || view.shape === 'values')
    return (await import('./values.js')).renderValues(request, render);
  const rows = asRows(data);
  switch (format) {
    case 'json':
      return (await import('./json.js')).renderJson(data, fields);
    case 'ndjson':
      return (await import('./json.js')).renderNdjson(rows, fields);
    case 'csv':
      return (await import('./csv.js')).renderCsv(rows, fields ?? fieldNames(view), {
        header,
        bom: request.bom,
        terminal: request.terminal === true,
      });
    case 'tsv':
      return (await import('./tsv.js')).renderTsv(rows, fields ?? fieldNames(view), { header });
    case 'table': {
      if (view.shape === 'object') {
        const record = await import('./record.js');
        const row = rows[0] ?? {};
        return record.renderRecord(row, fields ?? record.recordFields(fieldNames(view), row), {
          color: request.color,
          today: request.today,
          width: request.width,
        });
      }
      if (rows.length === 0) return '';
      const [table, { tableLayout }] = await Promise.all([import('./table.js'), import('./columns.js')]);
      // A detail field (what changed, under a change) prints under each row, not as a column.
      const chosen = fields ?? view.columns;
      const details =
        view.detail !== undefined && chosen.includes(view.detail)
          ? rows.map((row) => detailItems(row[view.detail!]))
          : undefined;
      const { columns, ...layout } = tableLayout(
        view,
        details === undefined ? chosen : chosen.filter((field) => field !== view.detail),
      );
      return table.renderTable(rows, columns, {
        header,
        color: request.color,
        today: request.today,
        width: request.width,
        ...layout,
        onDropped: request.onDropped,
        details,
      });
    }
  }
}

/** A detail field's items: an array's, one line each; anything else as one (none when empty). */
function detailItems(value: JsonValue | undefined): string[] {
  if (value === null || value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) =>
    typeof item === 'string' ? item : cellText(item, ', '),
  );
}
