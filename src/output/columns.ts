// A view's fields as a table's columns: the heading (and the shorter one for a narrow terminal),
// whether the column is free text, which gives way first, whether it holds date-times, and how
// far an enum may be cut and still tell its values apart.
import type { View } from '../core/endpoints.js';
import { enumLeast } from './fit.js';
import type { TableColumn } from './table.js';

/** Column kinds a table may shorten first when the terminal is narrow. */
const FREE_TEXT = new Set(['string', 'string[]']);

export function tableColumns(view: View, fields: readonly string[]): TableColumn[] {
  return fields.map((field) => {
    const type = view.fields.find((f) => f.name === field)?.type ?? { kind: 'string' };
    const kind = type.kind;
    return {
      field,
      heading: view.headings?.[field] ?? field,
      narrowHeading: view.narrowHeadings?.[field],
      flexible: FREE_TEXT.has(kind),
      dateTime: kind === 'date-time',
      least: type.kind === 'enum' ? enumLeast(type.values) : undefined,
    };
  });
}
