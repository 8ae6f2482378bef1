// The filters of a query that run over the answer's rows themselves (`[?…]` at the top, or as a
// function's argument, a pipe's left side, a value of a `{…}`), and the bare names each compares:
// a name no row has is null there, so such a filter keeps no row without a word (`[?tier ==
// RECOMMENDED]`, `length([?dueOn < "2027-01-01"])`). Evaluated once more alone, a filter that
// kept nothing names them (evaluate.ts), and the command says so (commands/shared/query.ts).
import { TreeInterpreter, type compile, type JSONValue } from '@jmespath-community/jmespath';
import type { JsonValue } from '../../core/json-value.js';

type Expression = ReturnType<typeof compile>;

interface Node {
  type?: string;
  name?: unknown;
  left?: Node;
  right?: Node;
  child?: Node;
  condition?: Node;
  children?: Node[];
  value?: Node;
  bindings?: { reference?: Node }[];
  expression?: Node;
}

/**
 * The names no row of `data` has that a filter over them compares, where that filter, alone,
 * keeps no row. `input` is the rows as the query reads them.
 */
export function namesThatEmptied(ast: Expression, data: JsonValue, input: JSONValue): string[] {
  const rows = Array.isArray(data) ? data : [];
  if (rows.length === 0) return [];
  const has = (name: string) => rows.some((row) => typeof row === 'object' && row !== null && Object.hasOwn(row, name));
  return rowFilters(ast as Node).flatMap((filter) => {
    const missing = comparedNames(filter.condition).filter((name) => !has(name));
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

/** The filters evaluated with the answer's rows as their input. */
function rowFilters(node: Node | undefined): Node[] {
  if (node === undefined) return [];
  switch (node.type) {
    case 'FilterProjection':
      return node.left?.type === 'Identity' || node.left?.type === 'Current' ? [node] : rowFilters(node.left);
    case 'Pipe':
    case 'Subexpression':
    case 'IndexExpression':
    case 'Projection':
      // The left side reads the input; the right side reads what the left made of it.
      return rowFilters(node.left);
    case 'AndExpression':
    case 'OrExpression':
    case 'Comparator':
    case 'Arithmetic':
      return [...rowFilters(node.left), ...rowFilters(node.right)];
    case 'NotExpression':
      return rowFilters(node.child);
    case 'Function':
    case 'MultiSelectList':
      return (node.children ?? []).flatMap(rowFilters);
    case 'MultiSelectHash':
      return (node.children ?? []).flatMap((pair) => rowFilters(pair.value));
    case 'LetExpression':
      return [
        ...(node.bindings ?? []).flatMap((binding) => rowFilters(binding.reference)),
        ...rowFilters(node.expression),
      ];
    default:
      return [];
  }
}

/** The bare names a filter's condition compares (both sides of each comparison, through && || !). */
function comparedNames(node: Node | undefined): string[] {
  if (node?.type === 'AndExpression' || node?.type === 'OrExpression')
    return [...comparedNames(node.left), ...comparedNames(node.right)];
  if (node?.type === 'NotExpression') return comparedNames(node.child);
  if (node?.type === 'Comparator')
    return [node.left, node.right].flatMap((side) => (side?.type === 'Field' ? [String(side.name)] : []));
  return [];
}
