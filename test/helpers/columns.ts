// Table columns for renderer tests: fields headed by their names, free text where `flexible` says.
import type { TableColumn } from '../../src/output/table.js';

export function columnsOf(fields: readonly string[], flexible: boolean | readonly boolean[] = true): TableColumn[] {
  return fields.map((field, i) => ({
    field,
    flexible: typeof flexible === 'boolean' ? flexible : flexible[i]!,
  }));
}
