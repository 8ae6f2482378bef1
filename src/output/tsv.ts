// TSV: a header row, tab-separated, one line per row; inside a value `\`, tab, CR and LF become
// `\\`, `\t`, `\r`, `\n` and other control characters `\xHH`/`\uHHHH` (reversible: unescapeTsv).
import type { JsonObject } from '../core/json-value.js';
import { cellText } from './cells.js';
import { escapeTsv } from '../core/sanitize.js';

export const TSV_ARRAY_SEPARATOR = '; ';

export function renderTsv(
  rows: readonly JsonObject[],
  fields: readonly string[],
  options: { header: boolean },
): string {
  const lines = rows.map((row) =>
    fields.map((field) => escapeTsv(cellText(row[field], TSV_ARRAY_SEPARATOR))).join('\t'),
  );
  if (options.header) lines.unshift(fields.map(escapeTsv).join('\t'));
  lines.push(''); // each line ends in \n, and the whole text is built once, by the join
  return lines.join('\n');
}
