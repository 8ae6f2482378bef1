// --fields: the columns and their order, in every format. Checked against what the data holds
// (its view) before any request is sent: an unknown name is a usage error listing the valid ones.
import { fieldNames, type View } from '../core/endpoints.js';
import { UsageError, hintOf } from '../core/errors.js';
import { didYouMean } from '../core/similar.js';

export function parseFields(view: View, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const valid = fieldNames(view);
  const fields = raw.split(',').map((field) => field.trim());
  for (const field of fields) {
    if (!valid.includes(field)) {
      throw new UsageError(
        `${field === '' ? 'empty field name' : `unknown field '${field}'`} in --fields for ${view.name}; valid fields: ${valid.join(', ')}`,
        hintOf(field === '' ? undefined : didYouMean(field, valid)),
      );
    }
  }
  const repeated = fields.find((field, i) => fields.indexOf(field) !== i);
  if (repeated) throw new UsageError(`field '${repeated}' appears twice in --fields`);
  return fields;
}
