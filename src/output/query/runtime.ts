// Two adjustments to the library's function runtime, made once, when a query first runs:
//
// - an error inside a function names it: the library's own words often do not (`sort_by(@,
//   &runwayDays)` over a null says only "Invalid type: expected (number), received null");
// - sort() orders numbers as numbers: @jmespath-community/jmespath 1.3.0 sorts them as text
//   (`sort([10, 9, 100])` gives [10, 100, 9]), which the specification does not allow.
//
// Both go through callFunction, the public method by which the interpreter calls every function.
import { TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';

/** An error raised inside a function of the query, and that function's name. */
export class QueryFunctionError extends Error {
  constructor(
    readonly functionName: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

let adjusted = false;

export function adjustRuntime(): void {
  if (adjusted) return;
  adjusted = true;
  const runtime = TreeInterpreter.runtime;
  const call = runtime.callFunction.bind(runtime);
  runtime.callFunction = (name, args) => {
    if (name === 'sort' && args.length === 1 && isNumbers(args[0])) return [...args[0]].sort((a, b) => a - b);
    try {
      return call(name, args);
    } catch (error) {
      // A function called inside another (an expression given to sort_by) was named already.
      throw error instanceof QueryFunctionError ? error : new QueryFunctionError(name, error);
    }
  };
}

function isNumbers(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item: JSONValue) => typeof item === 'number');
}
