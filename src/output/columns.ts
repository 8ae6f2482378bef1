// A view's fields as a table's columns: the heading (the field's name, unless a local view says
// otherwise), whether the column is free text, and whether it holds date-times.
import type { View } from '../core/endpoints.js';
import type { TableColumn } from './table.js';

/** Column kinds that are free text: cut, if any column is, rather than dropped (fit.ts). */
const FREE_TEXT = new Set(['string', 'string[]']);

export function tableColumns(view: View, fields: readonly string[]): TableColumn[] {
  return fields.map((field) => {
    const kind = (view.fields.find((f) => f.name === field)?.type ?? { kind: 'string' }).kind;
    return { field, heading: view.headings?.[field] ?? field, flexible: FREE_TEXT.has(kind), dateTime: kind === 'date-time' };
  });
}
