// A view's fields as a table's columns, headed by their names: whether each is free text, and
// whether it holds date-times.
import type { View } from '../core/endpoints.js';
import type { TableColumn } from './table.js';

/** Column kinds that are free text: cut, if any column is, rather than dropped (fit.ts). */
const FREE_TEXT = new Set(['string', 'string[]']);

export function tableColumns(view: View, fields: readonly string[]): TableColumn[] {
  return fields.map((field) => {
    const kind = (view.fields.find((f) => f.name === field)?.type ?? { kind: 'string' }).kind;
    return {
      field,
      flexible: FREE_TEXT.has(kind),
      dateTime: kind === 'date-time',
    };
  });
}

/**
 * A view's table for these fields: its columns, and which is the key, which the main column, what
 * drops first, and what drops together (a group of which fewer than two are shown holds nothing).
 */
export function tableLayout(
  view: View,
  fields: readonly string[],
): { columns: TableColumn[]; main?: number; key?: number; drop: number[]; together: number[][] } {
  const index = (field: string | undefined) =>
    field === undefined || !fields.includes(field) ? undefined : fields.indexOf(field);
  return {
    columns: tableColumns(view, fields),
    main: index(view.main),
    key: index(view.key),
    drop: (view.drop ?? []).flatMap((field) => index(field) ?? []),
    together: (view.together ?? [])
      .map((group) => group.flatMap((field) => index(field) ?? []))
      .filter((group) => group.length > 1),
  };
}
