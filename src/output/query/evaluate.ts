// A compiled --query over the API's JSON, its result bounded: the one step a query's author
// controls the cost of. Run in a worker thread of its own by the built cdata (./worker.ts), so
// that Ctrl-C and SIGTERM end it at once and its memory has a cap; from the sources (the tests
// that run main in-process) on the calling thread, with the same caps on the result.
//
// The result is measured before anything is built from it: a query shares values (`let $a = @
// in $a[].{x: $a}` is 200 references to one list), and printing writes each share out in full,
// so a result of a few MB in memory can be gigabytes as JSON. Measuring counts what printing
// would write, and stops at the cap.
import { TreeInterpreter, type compile, type JSONValue } from '@jmespath-community/jmespath';
import { UsageError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json-value.js';
import { isJsonObject, stringifyJson } from '../../core/json.js';
import { queryInput } from './numbers.js';
import { outOfMemory } from './memory-cap.js';
import { adjustRuntime, QueryFunctionError } from './runtime.js';
import { isRowFilter, namesThatEmptied, readingRows, someRowHas, type QueryNode } from './row-filters.js';

type Expression = ReturnType<typeof compile>;

/** The most a result may hold as JSON: twice the largest answer (16 MiB), so any answer can be reshaped. */
export const MAX_RESULT_BYTES = 32 * 1024 * 1024;
/** The most values (as an answer counts them: object keys too) a result may hold: twice an answer's. */
export const MAX_RESULT_VALUES = 400_000;
/** The deepest nesting of a result: an answer's 64 levels, and room for what a query wraps them in. */
export const MAX_RESULT_DEPTH = 128;

export interface Evaluated {
  /** The result as JSON, numbers as the API wrote them where they pass through (./numbers.ts). */
  json: string;
  /** The result is one of the answer's records, or a non-empty list of them: it keeps the command's view. */
  records: boolean;
  /** Names no row has, compared by a filter of the rows that kept none for it (./row-filters.ts). */
  emptiedBy: string[];
}

export function evaluate(ast: Expression, data: JsonValue): Evaluated {
  adjustRuntime();
  const input = queryInput(data);
  let value: JSONValue;
  try {
    value = TreeInterpreter.search(ast, input.value);
  } catch (error) {
    throw runtimeError(error, ast, data);
  }
  measure(value);
  const result = input.restore(value);
  const records = new Set<unknown>(Array.isArray(data) ? data : [data]);
  const isRecord = (item: unknown) => records.has(item);
  return {
    json: stringifyJson(result),
    records: Array.isArray(result) ? result.length > 0 && result.every(isRecord) : isRecord(result),
    emptiedBy: namesThatEmptied(ast, data, input.value),
  };
}

/** What printing the result would write, counted until a cap is passed: a usage error then. */
function measure(result: JSONValue): void {
  let bytes = 0;
  let values = 0;
  const stack: [JSONValue, number][] = [[result, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    values++;
    if (typeof value === 'string') bytes += value.length + 2;
    else if (typeof value === 'number') bytes += String(value).length;
    else if (value === null || typeof value !== 'object') bytes += 5;
    else {
      if (depth > MAX_RESULT_DEPTH) throw tooLarge(`is nested deeper than ${MAX_RESULT_DEPTH} levels`);
      if (isReference(value)) throw strayReference();
      const items = Array.isArray(value) ? value : Object.values(value);
      bytes += 2 + items.length;
      if (!Array.isArray(value)) {
        for (const key of Object.keys(value)) bytes += key.length + 3;
        values += items.length;
      }
      for (const item of items) stack.push([item, depth + 1]);
    }
    if (bytes > MAX_RESULT_BYTES) throw tooLarge(`is larger than ${MAX_RESULT_BYTES / 1024 / 1024} MiB as JSON`);
    if (values > MAX_RESULT_VALUES) throw tooLarge(`holds more than ${MAX_RESULT_VALUES.toLocaleString('en')} values`);
  }
}

/**
 * An expression reference (`&expr`), which the library evaluates to an object of its own: an
 * argument for a function (sort_by(@, &score)), no data to print. Its shape, as the library makes
 * it; an answer's records never carry `expref`.
 */
function isReference(value: object): boolean {
  return !Array.isArray(value) && (value as { expref?: unknown }).expref === true;
}

function strayReference(): UsageError {
  return new UsageError(
    "--query: the result holds an expression reference (&...), which is no data: & makes an expression a function's argument (sort_by(@, &score))",
    { hint: 'Without the &, the expression itself: --query score. JMESPath: docs/query.md.' },
  );
}

function tooLarge(what: string): UsageError {
  return new UsageError(
    `--query's result ${what}, past cdata's cap for a query (docs/limits.md#a---query-expression)`,
    {
      hint: 'A query that refers to a list inside a projection over it (let $a = @ in $a[].{x: $a}) multiplies its size: select fewer fields, or filter first.',
    },
  );
}

function runtimeError(error: unknown, ast: Expression, data: JsonValue): UsageError {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new UsageError('--query nests its evaluation too deeply for the stack', { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  // A string past V8's longest (pad_left, join, to_string of a huge value): what the memory cap
  // catches on Node 20 comes here first on Node 22 and 24.
  if (/^Invalid string length$|Array buffer allocation failed/.test(message)) return outOfMemory();
  // A field some records leave null (runwayDays, province) is the usual cause of a type error.
  // The default is of the type the function wants: text for a date or a name (max_by over closesOn).
  const expected = /expected (?:one of |argument \d+ to be type )?\(([^)]*)\)/.exec(message)?.[1] ?? '';
  const fallback = /\bstring\b/.test(expected) && !/\bnumber\b/.test(expected) ? "''" : '`0`';
  // sort_by(@, closesOn): the key is an expression, written with & (the field's value came instead).
  const called = error instanceof QueryFunctionError ? error.functionName : 'sort_by';
  // The argument the expression goes in: the second of sort_by, min_by, max_by, group_by; map's first.
  const place = /expected argument (\d+) to be type \(expression\)/.exec(message)?.[1];
  const hint = place
    ? {
        hint: `The key is an expression: write & before the field, ${called}(${place === '1' ? '&field, @' : '@, &field'}).`,
      }
    : /received (?:type )?null|^not-a-number: undefined/.test(message)
      ? nullHint(called, ast, data, fallback)
      : {};
  if (error instanceof QueryFunctionError) {
    // The library's words, less what the message now says first: "Invalid type: abs() expected…".
    const detail = message.replace(/^Invalid (?:type|arity): /, '').replace(`${error.functionName}() `, '');
    return new UsageError(`--query failed in ${error.functionName}(): ${detail}`, { cause: error, ...hint });
  }
  // Arithmetic on what is not a number, or a $variable no `let` defines.
  const arithmetic = /^not-a-number(: divide by zero)?/.exec(message);
  if (arithmetic)
    return new UsageError(
      `--query failed: ${arithmetic[1] ? 'division by zero' : 'arithmetic (+ - * / % //) needs numbers on both sides'}`,
      { cause: error, ...hint },
    );
  const variable = /^Error referencing undefined variable (\S+)/.exec(message);
  if (variable)
    return new UsageError(`--query failed: no variable $${variable[1]} is defined (let $${variable[1]} = … in …)`, {
      cause: error,
    });
  return new UsageError(`--query failed: ${message}`, { cause: error, ...hint });
}

/**
 * Why a function met null: a sort key that no record has at all (a typo: max_by(@, &scroe)),
 * which a default would only hide behind a plausible answer; else records that leave it null.
 */
function nullHint(called: string, ast: Expression, data: JsonValue, fallback: string): { hint: string } {
  const rows = (Array.isArray(data) ? data : [data]).filter(isJsonObject);
  const missing = keyFields(ast, called).find((name) => rows.length > 0 && !someRowHas(rows, name));
  if (missing !== undefined)
    return {
      hint: `No record has a field named ${missing}: check its spelling. Their fields: ${[...new Set(rows.flatMap(Object.keys))].join(', ')}.`,
    };
  return {
    hint: `Some records hold null there: leave them out first ([?field != null]) or give a default (field || ${fallback}).`,
  };
}

/**
 * The field names that calls of `name` take as their key (&field), where the call is over the
 * answer's own records (`@`, or a filter of them, read at the top: not `[].{…} | max_by(@, …)`,
 * whose @ is the projection's): only there is "no record has it" known.
 */
function keyFields(ast: Expression, name: string): string[] {
  return readingRows(ast as QueryNode).flatMap((node) => {
    const [over, key] = node.type === 'Function' && node.name === name ? (node.children ?? []) : [];
    const records = over?.type === 'Current' || over?.type === 'Identity' || isRowFilter(over);
    const field = key?.type === 'ExpressionReference' ? key.child : undefined;
    return records && field?.type === 'Field' && typeof field.name === 'string' ? [field.name] : [];
  });
}
