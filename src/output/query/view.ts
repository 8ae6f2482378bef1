// How a query's result looks in every format (docs/output.md), decided from the result
// itself: the answer's own records keep the command's view (its default columns); other objects
// are rows whose columns are their keys, first seen first (the projection's order), and one object
// alone a record; anything
// else is values, in one column `value`. An empty list has no rows to look at, so its columns
// are read from the expression (`[?…].{a: a, b: b}` gives a and b), keeping a CSV header.
import type { compile } from '@jmespath-community/jmespath';
import type { Field, FieldType, View } from '../../core/endpoints.js';
import { isJsonNumber, isJsonObject } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../core/json-value.js';

const NAME = "the query's result";

type ExpressionNode = ReturnType<typeof compile>;

export function resultView(
  result: JsonValue,
  base: View,
  isRecord: (value: JsonValue) => boolean,
  expression: ExpressionNode,
): View {
  if (Array.isArray(result)) {
    if (result.length === 0)
      return emptyView(elementsOf(expression, base.shape === 'list' ? 'records' : undefined), base);
    if (result.every(isRecord)) return asList(base);
    return result.every(isJsonObject) ? rowsView(result, base) : valuesView('values');
  }
  if (isJsonObject(result)) {
    // One of the answer's records ([0], max_by(@, &score)): shown as `cdata <list> KEY` shows one.
    if (isRecord(result)) return { ...base, shape: 'object' };
    // One object reads as a record does at a terminal (a name and its value a line, wrapped, never
    // cut); the other formats make it one row, as before.
    const view = rowsView([result], base);
    return view.shape === 'list' ? { ...view, shape: 'object' } : view;
  }
  return valuesView('value');
}

function asList(base: View): View {
  return base.shape === 'list' ? base : { ...base, shape: 'list' };
}

/**
 * Rows with the union of their keys as columns, typed as the command's fields of those names are.
 * A column named as the command's key, main text or one it drops is that here too: at a narrow
 * terminal the key stays whole (it opens the record), the main text is the one cut, and what the
 * list view drops whole (an email, a phone) is dropped whole, with a note, rather than cut.
 */
function rowsView(rows: readonly JsonObject[], base: View): View {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (columns.length === 0) return valuesView(rows.length === 1 ? 'value' : 'values');
  const typeOf = (name: string): FieldType =>
    base.fields.find((field) => field.name === name)?.type ?? kindOf(rows.map((row) => row[name]));
  const shown = (name: string | undefined) => (name !== undefined && columns.includes(name) ? name : undefined);
  const key = shown(base.key);
  const main = shown(base.main);
  return {
    name: NAME,
    shape: 'list',
    fields: columns.map((name) => ({ name, type: typeOf(name) })),
    columns,
    named: true,
    ...(key === undefined ? {} : { key }),
    ...(main === undefined ? {} : { main }),
    drop: (base.drop ?? []).filter((name) => columns.includes(name)),
    together: (base.together ?? []).map((group) => group.filter((name) => columns.includes(name))),
  };
}

/**
 * A column's kind, read from its values that are not null, as a projection may rename a field
 * (`{ref: id, due: dueOn}`) and its name then says nothing: numbers (by the first) align right;
 * dates, date-times and words without a space (ids, codes, enum values, emails, hashes) are
 * never cut, where a key cut to `4424d…` opens nothing; text with a space may be.
 */
function kindOf(values: readonly (JsonValue | undefined)[]): FieldType {
  const present = values.filter((value) => value !== null && value !== undefined);
  const first = present[0];
  if (typeof first === 'number' || isJsonNumber(first)) return { kind: 'number' };
  if (present.length === 0 || !present.every((value) => typeof value === 'string')) return { kind: 'string' };
  if (present.every((value) => DATE.test(value))) return { kind: 'date' };
  if (present.every((value) => DATE_TIME.test(value))) return { kind: 'date-time' };
  return present.every((value) => !/\s/.test(value)) ? { kind: 'word' } : { kind: 'string' };
}

const DATE = /^\d{4}-\d\d-\d\d$/;
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)$/;

const VALUE_FIELD: Field = { name: 'value', type: { kind: 'string' } };

function valuesView(shape: 'value' | 'values'): View {
  return { name: NAME, shape, fields: [VALUE_FIELD], columns: ['value'] };
}

/** The answer's records, the keys of the objects a projection makes, or values. */
type Elements = 'records' | 'values' | readonly string[] | undefined;

function emptyView(elements: Elements, base: View): View {
  if (elements === 'records') return asList(base);
  if (Array.isArray(elements) && elements.length > 0) {
    const fields = elements.map(
      (name: string) => base.fields.find((field) => field.name === name) ?? { name, type: { kind: 'string' } as const },
    );
    return { name: NAME, shape: 'list', fields, columns: [...elements] };
  }
  return valuesView('values');
}

/** Functions whose list holds the elements of their first argument, reordered or cut. */
const SAME_ELEMENTS = new Set(['sort_by', 'sort', 'reverse', 'to_array']);

/** The elements of the list an expression yields, read from the expression alone; `current`: those of `@`. */
function elementsOf(node: ExpressionNode, current: Elements): Elements {
  switch (node.type) {
    case 'Identity':
    case 'Current':
      return current;
    case 'Pipe':
      return elementsOf(node.right, elementsOf(node.left, current));
    case 'LetExpression':
      return elementsOf(node.expression, current);
    case 'Flatten':
      return elementsOf(node.child, current);
    case 'IndexExpression':
      return node.right.type === 'Slice' ? elementsOf(node.left, current) : undefined;
    case 'Projection':
    case 'FilterProjection':
      return elementOf(node.right, elementsOf(node.left, current));
    case 'ValueProjection':
      return elementOf(node.right, undefined);
    case 'Function':
      return SAME_ELEMENTS.has(node.name) && node.children[0] ? elementsOf(node.children[0], current) : undefined;
    default:
      return undefined;
  }
}

/** What a projection's right side makes of each element. */
function elementOf(node: ExpressionNode, element: Elements): Elements {
  if (node.type === 'Identity' || node.type === 'Current') return element;
  if (node.type === 'MultiSelectHash') return node.children.map((pair) => pair.name);
  return 'values';
}
