// Adjustments to the library's evaluation, made once, when a query first runs. JMESPath Community
// Edition everywhere, except where python-jmespath (the engine of the AWS CLI's --query, whose
// queries people bring) orders strings: the API's dates are strings (`2026-11-22`), and with the
// library's 1.3.0 as it comes `[?dueOn < '2027-01-01']` is always empty. So, as python-jmespath
// evaluates them (docs/query.md#dates-and-names-where-cdata-differs):
//
// - `<`, `<=`, `>`, `>=` compare two strings by code point (ISO dates in time order); a number
//   with a number as before; anything else is null, as the specification says;
// - `min`, `max`, `min_by`, `max_by` over strings by code point (the library seeds min_by and
//   max_by with ±Infinity, so strings gave null, and min/max used the locale's order); the
//   first of equal keys wins;
// - `sort_by` is stable (the library's string comparer never says two keys are equal, so ties
//   came out reversed), `sort` orders numbers as numbers (1.3.0 sorts them as text) and strings
//   by code point.
//
// The functions are replaced through the library's own registerFunction(..., { override: true }); the
// comparator is a case of the interpreter's visit(), which cdata wraps on its prototype (every
// interpreter a `let` makes shares it). And an error inside a function names it: the library's
// own words often do not (`sort_by(@, &runwayDays)` over a null says only "Invalid type: expected
// (number), received null").
import {
  registerFunction,
  TreeInterpreter,
  TYPE_ARRAY,
  TYPE_ARRAY_NUMBER,
  TYPE_ARRAY_STRING,
  TYPE_EXPREF,
  type InputSignature,
  type JSONValue,
} from '@jmespath-community/jmespath';

/** An error raised inside a function of the query, and that function's name. */
export class QueryFunctionError extends Error {
  constructor(
    readonly functionName: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** What cdata uses of the library's interpreter and runtime beyond their declared types. */
interface Node {
  type: string;
  name?: string;
  left?: Node;
  right?: Node;
}
interface Interpreter {
  visit(node: Node, value: JSONValue): JSONValue;
}
interface Runtime {
  _interpreter: Interpreter;
  callFunction(name: string, args: unknown[]): JSONValue;
}

/** The interpreter of the function being called: a `let` runs in an interpreter of its own. */
let calling: Interpreter | undefined;
let adjusted = false;

export function adjustRuntime(): void {
  if (adjusted) return;
  adjusted = true;
  const interpreter = Object.getPrototypeOf(TreeInterpreter) as Interpreter;
  const visit = interpreter.visit;
  interpreter.visit = function (this: Interpreter, node: Node, value: JSONValue): JSONValue {
    if (node.type === 'Comparator' && node.name !== 'EQ' && node.name !== 'NE') {
      const order = ordering(this.visit(node.left!, value), this.visit(node.right!, value));
      return order === null ? null : ORDERED[node.name!]!(order);
    }
    return visit.call(this, node, value);
  };

  const runtime = Object.getPrototypeOf(TreeInterpreter.runtime) as Runtime;
  const call = runtime.callFunction;
  runtime.callFunction = function (this: Runtime, name, args) {
    const outer = calling;
    calling = this._interpreter;
    try {
      return call.call(this, name, args);
    } catch (error) {
      // A function called inside another (an expression given to sort_by) was named already.
      throw error instanceof QueryFunctionError ? error : new QueryFunctionError(name, error);
    } finally {
      calling = outer;
    }
  };

  // The signatures are the library's own: it checks the arguments (an array of numbers or of
  // strings; an array and an &expression) before these run.
  const values = [{ types: [TYPE_ARRAY_NUMBER, TYPE_ARRAY_STRING] }];
  const byKey = [{ types: [TYPE_ARRAY] }, { types: [TYPE_EXPREF] }];
  const define = (name: string, signature: InputSignature[], run: (list: JSONValue[], key: Node) => JSONValue) =>
    registerFunction(name, (args) => run(args[0] as JSONValue[], args[1] as unknown as Node), signature, {
      override: true,
    });
  define('sort', values, (list) => [...(list as Sortable[])].sort(compareValues));
  define('min', values, (list) => pick(list, list as Sortable[], -1));
  define('max', values, (list) => pick(list, list as Sortable[], 1));
  define('min_by', byKey, (list, key) => pick(list, keysOf(list, key), -1));
  define('max_by', byKey, (list, key) => pick(list, keysOf(list, key), 1));
  define('sort_by', byKey, (list, key) => sortBy(list, key));
}

type Sortable = number | string;

const ORDERED: Record<string, (order: number) => boolean> = {
  LT: (order) => order < 0,
  LTE: (order) => order <= 0,
  GT: (order) => order > 0,
  GTE: (order) => order >= 0,
};

/** The order of two numbers or two strings; null for anything else (booleans, null, a number and a string). */
function ordering(left: JSONValue, right: JSONValue): number | null {
  if (typeof left === 'number' && typeof right === 'number') return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === 'string' && typeof right === 'string') return compareCodePoints(left, right);
  return null;
}

function compareValues(left: Sortable, right: Sortable): number {
  return typeof left === 'number' ? (left as number) - (right as number) : compareCodePoints(left, right as string);
}

/**
 * Two strings in code-point order, as Python compares them: JavaScript's `<` compares UTF-16
 * units, which puts a character beyond U+FFFF (an emoji, a rare CJK one) before U+E000-U+FFFF.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    if (left.charCodeAt(i) === right.charCodeAt(i)) continue;
    // Within a pair whose first half was the same, the whole character decides.
    const at = i > 0 && isHighSurrogate(left.charCodeAt(i - 1)) ? i - 1 : i;
    return left.codePointAt(at)! - right.codePointAt(at)!;
  }
  return left.length - right.length;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** The key of each item, each a number or a string, all of one type. */
function keysOf(list: readonly JSONValue[], key: Node, required?: 'number' | 'string'): Sortable[] {
  const interpreter = calling ?? (TreeInterpreter as unknown as Interpreter);
  return list.map((item) => {
    const value = interpreter.visit(key, item);
    const type = typeName(value);
    if (type !== (required ?? 'number') && type !== (required ?? 'string'))
      throw new Error(`Invalid type: expected (${required ?? 'number | string'}), received ${type}`);
    required ??= type as 'number' | 'string';
    return value as Sortable;
  });
}

/** The item whose key comes first (-1) or last (1); the first of equal ones; null for none. */
function pick<T>(items: readonly T[], keys: readonly Sortable[], direction: -1 | 1): T | null {
  if (items.length === 0) return null;
  let best = 0;
  for (let i = 1; i < keys.length; i++) if (compareValues(keys[i]!, keys[best]!) * direction > 0) best = i;
  return items[best]!;
}

/** Stable: items with equal keys keep their order. */
function sortBy(list: readonly JSONValue[], key: Node): JSONValue[] {
  const keys = keysOf(list, key);
  const order = keys.map((_, i) => i).sort((a, b) => compareValues(keys[a]!, keys[b]!) || a - b);
  return order.map((i) => list[i]!);
}

function typeName(value: JSONValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}
