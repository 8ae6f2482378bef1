// A query's result that is not rows (docs/output.md): JSON prints it as it is (ndjson a
// line per item of a list); the other formats show one column `value`, a list with a header row
// and a single value as itself, alone on its line. Cells keep every rule of their format
// (formula guarding, escaping, numbers as the API wrote them).
import type { JsonValue } from '../core/json-value.js';
import { sanitizedLines, sanitizeJson } from '../core/sanitize.js';
import { stringifyJson } from '../core/json.js';
import { cellText } from './cells.js';
import { renderJson } from './json.js';
import type { RenderRequest } from './request.js';

/** Renders a `value` or `values` view; `render` takes the rows a list of values becomes. */
export async function renderValues(
  request: RenderRequest,
  render: (request: RenderRequest) => Promise<string>,
): Promise<string> {
  const { view, data, format } = request;
  const items: readonly JsonValue[] = view.shape === 'values' && Array.isArray(data) ? data : [data];
  if (format === 'json') return renderJson(data, undefined);
  if (format === 'ndjson') return items.map((item) => `${sanitizeJson(stringifyJson(item))}\n`).join('');
  // A value in a table is its text, whole: a table's cell would be cut to the terminal's width.
  // Its own line breaks are kept, as the record view keeps them (`--query briefingNote`).
  if (view.shape === 'value' && format === 'table') {
    const text = cellText(data, (await import('./table.js')).TABLE_ARRAY_SEPARATOR);
    return `${sanitizedLines(text).join('\n')}\n`;
  }
  const rows = items.map((value) => ({ value }));
  return render({
    ...request,
    view: { ...view, shape: 'list' },
    data: rows,
    header: request.header && view.shape === 'values',
  });
}
