// The filters of a query that run over the answer's rows themselves (`[?…]` at the top, or as a
// function's argument, a pipe's left side, a value of a `{…}`), and the bare names each compares:
// a name no row has is null there, so such a filter keeps no row without a word (`[?tier ==
// RECOMMENDED]`, `length([?dueOn < "2027-01-01"])`). Evaluated once more alone, a filter that
// kept nothing names them (evaluate.ts), and the command says so (commands/shared/query.ts).
import { TreeInterpreter, type compile, type JSONValue } from '@jmespath-community/jmespath';
import type { JsonValue } from '../../core/json-value.js';

type Expression = ReturnType<typeof compile>;

export interface QueryNode {
  type?: string;
  name?: unknown;
  left?: QueryNode;
  right?: QueryNode;
  child?: QueryNode;
  condition?: QueryNode;
  children?: QueryNode[];
  value?: QueryNode;
  bindings?: { reference?: QueryNode }[];
  expression?: QueryNode;
}

/**
 * The names no row of `data` has that a filter over them compares, where that filter, alone,
 * keeps no row. `input` is the rows as the query reads them.
 */
export function namesThatEmptied(ast: Expression, data: JsonValue, input: JSONValue): string[] {
  const rows = Array.isArray(data) ? data : [];
  if (rows.length === 0) return [];
  return rowFilters(ast as QueryNode).flatMap((filter) => {
    const missing = comparedNames(filter.condition).filter((name) => !someRowHas(rows, name));
    if (missing.length === 0) return [];
    // The filter alone, its projection left out: did it keep any row?
    const alone = { ...filter, right: { type: 'Identity' } } as unknown as Expression;
    try {
      const kept = TreeInterpreter.search(alone, input);
      return Array.isArray(kept) && kept.length === 0 ? missing : [];
    } catch {
      return [];
    }
  });
}

/** Whether any of `rows` is an object with a field `name` of its own (not one of JavaScript's, as `in` would see). */
export const someRowHas = (rows: readonly JsonValue[], name: string): boolean =>
  rows.some((row) => typeof row === 'object' && row !== null && Object.hasOwn(row, name));

/** A filter over the answer's rows themselves: `[?…]` whose input is the answer. */
export const isRowFilter = (node: QueryNode | undefined): boolean =>
  node?.type === 'FilterProjection' && (node.left?.type === 'Identity' || node.left?.type === 'Current');

/** The filters evaluated with the answer's rows as their input. */
function rowFilters(node: QueryNode | undefined): QueryNode[] {
  return readingRows(node).filter(isRowFilter);
}

/**
 * The nodes of an expression that read the answer itself as their input: the top, and from it a
 * pipe's or a subexpression's left side, a function's arguments, an object's values, a list's
 * items, both sides of a comparison or of && and ||, a let's bindings and body. Not a
 * projection's right side, a pipe's right side or an &expression: those read what came before.
 */
export function readingRows(node: QueryNode | undefined): QueryNode[] {
  if (node === undefined) return [];
  const below = (): QueryNode[] => {
    switch (node.type) {
      case 'FilterProjection':
      case 'Pipe':
      case 'Subexpression':
      case 'IndexExpression':
      case 'Projection':
        return readingRows(node.left);
      case 'AndExpression':
      case 'OrExpression':
      case 'Comparator':
      case 'Arithmetic':
        return [...readingRows(node.left), ...readingRows(node.right)];
      case 'NotExpression':
        return readingRows(node.child);
      case 'Function':
      case 'MultiSelectList':
        return (node.children ?? []).flatMap(readingRows);
      case 'MultiSelectHash':
        return (node.children ?? []).flatMap((pair) => readingRows(pair.value));
      case 'LetExpression':
        return [
          ...(node.bindings ?? []).flatMap((binding) => readingRows(binding.reference)),
          ...readingRows(node.expression),
        ];
      default:
        return [];
    }
  };
  return [node, ...below()];
}

/** The bare names a filter's condition compares (both sides of each comparison, through && || !). */
function comparedNames(node: QueryNode | undefined): string[] {
  if (node?.type === 'AndExpression' || node?.type === 'OrExpression')
    return [...comparedNames(node.left), ...comparedNames(node.right)];
  if (node?.type === 'NotExpression') return comparedNames(node.child);
  if (node?.type === 'Comparator')
    return [node.left, node.right].flatMap((side) => (side?.type === 'Field' ? [String(side.name)] : []));
  return [];
}
